export { onShutdownSignal, SHUTDOWN_MARGIN_MS } from './on-shutdown-signal';
export { runMain } from './run-main';
export { SERVICE_ENV, SERVICE_NODE_FLAGS } from './node-flags';
export { startServiceFoundation, type ServiceFoundation } from './service-foundation';
export { SweepLoop } from './sweep-loop';
