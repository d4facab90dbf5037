export { onShutdownSignal } from './on-shutdown-signal';
