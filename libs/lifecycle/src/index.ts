export { onShutdownSignal } from './on-shutdown-signal';
export { runMain } from './run-main';
export { SERVICE_NODE_FLAGS } from './node-flags';
export { startServiceFoundation, type ServiceFoundation } from './service-foundation';
