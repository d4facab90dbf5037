export { onShutdownSignal } from './on-shutdown-signal';
export { runMain } from './run-main';
