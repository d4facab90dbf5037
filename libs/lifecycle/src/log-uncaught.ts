import type { Logger } from '@libs/logging';

/**
 * Whatever still escapes to the process (nothing should: gRPC handlers answer
 * INTERNAL, routes answer problems) ends it as Node intends, so that a
 * supervisor restarts a clean process; but first it leaves one JSON line in the
 * log saying what escaped and from where (a throw or an unhandled rejection).
 */
export function logUncaughtErrors(logger: Logger): void {
  process.on('uncaughtExceptionMonitor', (error, origin) => {
    logger.fatal({ err: error, origin }, 'uncaught exception; the process exits');
  });
}
