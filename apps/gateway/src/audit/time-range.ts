import { z } from 'zod';
import { AUDIT_LIMITS, AUDIT_YEARS, epochOfInstant, instantPattern, yearsPattern } from '@libs/contracts';
import { HttpProblem } from '@libs/http-problems';

// Patterns without flags, which the document states beside the formats whose calendar checks instantOf makes.
// The years are those written; an instant an offset moves outside them is taken as the first or last moment.
const DATE = new RegExp(`^(${yearsPattern(AUDIT_YEARS)})-(\\d{2})-(\\d{2})$`);
const TIMESTAMP = instantPattern(AUDIT_YEARS);
const EARLIEST = Date.UTC(AUDIT_YEARS.min, 0, 1);
const LATEST = Date.UTC(AUDIT_YEARS.max + 1, 0, 1);
const DAY_MS = 86_400_000;

interface Instant {
  ms: number;
  isDate: boolean;
}

/** Milliseconds since the epoch of a YYYY-MM-DD day (UTC) or an RFC 3339 timestamp with offset, if it is one. */
function instantOf(value: string): Instant | undefined {
  const date = DATE.exec(value);
  const ms = date ? Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3])) : epochOfInstant(value, TIMESTAMP);
  if (ms === undefined || (date && !new Date(ms).toISOString().startsWith(value))) return undefined;
  return { ms: Math.min(Math.max(ms, EARLIEST), LATEST - 1), isDate: Boolean(date) };
}

/** A day (YYYY-MM-DD, UTC) or a timestamp with offset, from 1900 to 9999. */
export const instant = z
  .string()
  .max(AUDIT_LIMITS.instantMaxLength, { message: `must be at most ${AUDIT_LIMITS.instantMaxLength} characters`, abort: true })
  .refine((value) => instantOf(value) !== undefined, {
    message: `must be a date (YYYY-MM-DD) or a timestamp with offset (2026-09-01T08:00:00Z) from ${AUDIT_YEARS.min} to ${AUDIT_YEARS.max}`,
  })
  .meta({
    anyOf: [
      { type: 'string', format: 'date', pattern: DATE.source },
      { type: 'string', format: 'date-time', pattern: TIMESTAMP.source },
    ],
  });

/**
 * `from` and `to`, both inclusive: a day covers all of it, a timestamp is
 * exact to the millisecond. Returns ISO bounds as [from, before) for the upstream.
 */
export function timeRange(fromText: string | undefined, toText: string | undefined): { from: string; before: string } {
  const from = fromText === undefined ? undefined : instantOf(fromText);
  const to = toText === undefined ? undefined : instantOf(toText);
  // Capped at the year 10000, which ISO 8601 text can no longer write in four digits: `to=9999-12-31` means "until the end".
  const beforeMs = to && Math.min(to.ms + (to.isDate ? DAY_MS : 1), LATEST - 1);
  if (from && beforeMs !== undefined && from.ms >= beforeMs) throw HttpProblem.invalidParameter('to', 'must not be before from');
  return {
    from: from ? new Date(from.ms).toISOString() : '',
    before: beforeMs !== undefined ? new Date(beforeMs).toISOString() : '',
  };
}
