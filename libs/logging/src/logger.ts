import pino from 'pino';
import { currentRequestId } from './request-context';

export type Logger = pino.Logger;

/**
 * Lines wait in memory until stdout takes them. When whatever reads stdout is
 * slower than the lines come (a flood of requests, a stalled pipe), the wait
 * would grow until the process runs out of memory; past this much, lines are
 * dropped instead, and a warning says how many once stdout has caught up.
 */
export const LOG_BUFFER_MAX_BYTES = 16 * 1024 * 1024;

/**
 * JSON logs on stdout; every line written inside a request carries its
 * requestId, credentials are redacted, and the lines waiting for stdout never
 * take more than LOG_BUFFER_MAX_BYTES.
 */
export function createLogger(service: string, level: string): Logger {
  const stdout = pino.destination({ dest: 1, sync: false, maxLength: LOG_BUFFER_MAX_BYTES });
  const logger = pino({
    level,
    base: { service, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    // Request lines carry chosen fields, not headers (the gateway's request-log.ts); should a header object be
    // logged anyway, an API key or session in a log file is a leaked credential.
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], censor: '[redacted]' },
    mixin() {
      const requestId = currentRequestId();
      return requestId ? { requestId } : {};
    },
  }, stdout);
  let dropped = 0;
  stdout.on('drop', () => (dropped += 1));
  stdout.on('drain', () => {
    if (dropped === 0) return;
    logger.warn({ droppedLines: dropped }, 'dropped log lines: stdout did not take them fast enough');
    dropped = 0;
  });
  return logger;
}
