import pino from 'pino';
import { currentRequestId } from './request-context';

export type Logger = pino.Logger;

/** JSON logs on stdout; every line written inside a request carries its requestId, and credentials are redacted. */
export function createLogger(service: string, level: string): Logger {
  return pino({
    level,
    base: { service, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    // Request logs include headers; an API key or session in a log file is a leaked credential.
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], censor: '[redacted]' },
    mixin() {
      const requestId = currentRequestId();
      return requestId ? { requestId } : {};
    },
  });
}
