export { onShutdownSignal, SHUTDOWN_MARGIN_MS } from './on-shutdown-signal';
export { runMain } from './run-main';
