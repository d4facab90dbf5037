import pino from 'pino';
import { currentRequestId } from './request-context';

export type Logger = pino.Logger;

/** JSON logs on stdout; every line written inside a request carries its requestId. */
export function createLogger(service: string, level: string): Logger {
  return pino({
    level,
    base: { service, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const requestId = currentRequestId();
      return requestId ? { requestId } : {};
    },
  });
}
