import pino from 'pino';
import { boundedText } from '@libs/safe-text';
import { currentClientRequestId, currentRequestId } from './request-context';

export type Logger = pino.Logger;

// Log fields can carry what a client sent (a URL, a database error quoting a value): each string is
// made well-formed and bounded, so that one request cannot write a 100 KB line.
const MAX_FIELD_LENGTH = 2_000;
const MAX_STACK_LENGTH = 8_000;

const isUnruly = (value: unknown): value is string =>
  typeof value === 'string' && (value.length > MAX_FIELD_LENGTH || !value.isWellFormed());

/** The fields, with each top-level string well-formed and bounded (copied only when one is not). */
function boundedFields(fields: Record<string, unknown>): Record<string, unknown> {
  if (!Object.values(fields).some(isUnruly)) return fields;
  return Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [key, isUnruly(value) ? boundedText(value, MAX_FIELD_LENGTH) : value]),
  );
}

// A serialized error nests what it wraps: Sequelize's DatabaseError carries the pg error twice (parent,
// original), each with its whole message and stack, beside the sql and its parameters.
const MAX_ERROR_DEPTH = 3;
const MAX_ERROR_ITEMS = 20;
const MAX_ERROR_KEYS = 40;

/** A value of a serialized error, bounded: strings cut, lists and objects shortened, nesting stopped at MAX_ERROR_DEPTH. */
function boundedValue(value: unknown, depth: number, maxLength = MAX_FIELD_LENGTH): unknown {
  if (typeof value === 'string') return boundedText(value, maxLength);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_ERROR_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) return value.slice(0, MAX_ERROR_ITEMS).map((item) => boundedValue(item, depth + 1));
  const fields: Record<string, unknown> = {};
  let keys = 0;
  // for...in, not Object.entries: a Buffer of 1 MB would list a million keys before any were dropped.
  for (const key in value) {
    if (++keys > MAX_ERROR_KEYS) break;
    const field = (value as Record<string, unknown>)[key];
    fields[key] = boundedValue(field, depth + 1, key === 'stack' ? MAX_STACK_LENGTH : MAX_FIELD_LENGTH);
  }
  return fields;
}

/** pino's error serializer (which also serializes the errors an error wraps), with everything in it bounded. */
const boundedError = (error: unknown): unknown => boundedValue(pino.stdSerializers.err(error as Error), 0);

/**
 * Lines wait in memory until stdout takes them. When whatever reads stdout is
 * slower than the lines come (a flood of requests, a stalled pipe), the wait
 * would grow until the process runs out of memory; past this much, lines are
 * dropped instead, and a warning says how many once stdout has caught up.
 */
export const LOG_BUFFER_MAX_BYTES = 16 * 1024 * 1024;

/**
 * JSON logs on stdout (or `destination`); every line written inside a request
 * carries its requestId, credentials are redacted, and the lines waiting for
 * stdout never take more than LOG_BUFFER_MAX_BYTES.
 */
export function createLogger(service: string, level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }), log: boundedFields },
    serializers: { err: boundedError },
    // Request lines carry chosen fields, not headers (the gateway's request-log.ts); should a header object be
    // logged anyway, an API key or session in a log file is a leaked credential.
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], censor: '[redacted]' },
    mixin() {
      const requestId = currentRequestId();
      const clientRequestId = currentClientRequestId();
      return { ...(requestId && { requestId }), ...(clientRequestId && { clientRequestId }) };
    },
  };
  if (destination) return pino(options, destination);
  const stdout = pino.destination({ dest: 1, sync: false, maxLength: LOG_BUFFER_MAX_BYTES });
  const logger = pino(options, stdout);
  let dropped = 0;
  stdout.on('drop', () => (dropped += 1));
  stdout.on('drain', () => {
    if (dropped === 0) return;
    logger.warn({ droppedLines: dropped }, 'dropped log lines: stdout did not take them fast enough');
    dropped = 0;
  });
  return logger;
}
