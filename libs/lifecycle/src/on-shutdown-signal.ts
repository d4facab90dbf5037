import type { Logger } from '@libs/logging';

/** Time beyond the drain grace for closing pools and connections; with the default grace, 10 s in all. */
export const SHUTDOWN_MARGIN_MS = 2_000;

/**
 * Runs `stop` once on SIGTERM or SIGINT, then exits. The hard limit (the
 * service's drain grace, SHUTDOWN_GRACE_MS, plus a margin for closing) is the
 * backstop: whatever still hangs after it, the process ends anyway.
 */
export function onShutdownSignal(logger: Logger, stop: () => Promise<void>, graceMs: number): void {
  const hardLimitMs = graceMs + SHUTDOWN_MARGIN_MS;
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error('shutdown did not finish in time; exiting');
      process.exit(1);
    }, hardLimitMs).unref();
    stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', handle);
  process.once('SIGINT', handle);
}
