import type { Logger } from '@libs/logging';

/**
 * Runs `stop` once on SIGTERM or SIGINT, then exits. The hard limit is the
 * backstop: whatever still hangs after it, the process ends anyway.
 */
export function onShutdownSignal(logger: Logger, stop: () => Promise<void>, hardLimitMs = 10_000): void {
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
