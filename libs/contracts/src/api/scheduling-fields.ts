import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { epochOfInstant, instantPattern } from './instant-pattern';
import { DATE_YEARS, SCHEDULING_LIMITS } from './limits';
import { yearsPattern } from './year-pattern';

/**
 * How scheduling's callers write times, and the zod schemas of those fields. The gateway validates and
 * documents requests with the schemas; the scheduling service parses the same text with the same functions.
 * An instant must carry its offset (a bare local time is ambiguous), a local time is "HH:MM", a zone an
 * IANA name (`+05:00` is refused: a location needs its daylight-saving rules).
 */

// The shapes, with the years the API takes (DATE_YEARS), as patterns without flags, so that the OpenAPI document
// can state them (the *_SHAPE schemas below); the calendar checks the functions make are what `format` means.
const YEAR = yearsPattern(DATE_YEARS);
const INSTANT = instantPattern(DATE_YEARS);
export const LOCAL_DATE = new RegExp(`^(${YEAR})-(\\d{2})-(\\d{2})$`);
/** What parseInstant and isLocalDate take, as JSON Schema. */
export const INSTANT_SHAPE = { type: 'string', format: 'date-time', pattern: INSTANT.source } as const;
export const LOCAL_DATE_SHAPE = { type: 'string', format: 'date', pattern: LOCAL_DATE.source } as const;
const { instantMaxLength, localDateLength, zoneNameMaxLength, localTimeLength } = SCHEDULING_LIMITS;
const ZONE_NAME = new RegExp(`^[A-Za-z][A-Za-z0-9_+\\-/]{0,${zoneNameMaxLength - 1}}$`);
export const MINUTES_PER_DAY = 1_440;

export const INSTANT_MESSAGE = 'must be an ISO 8601 instant with an offset or Z, e.g. 2026-03-08T09:00:00-05:00';
export const ZONE_MESSAGE = 'must be an IANA time zone, e.g. Europe/London';
export const LOCAL_DATE_MESSAGE = 'must be a date written YYYY-MM-DD';
const LOCAL_TIME_MESSAGE = 'must be a local time written HH:MM';

/** A real calendar date written YYYY-MM-DD, within the years the API takes (DATE_YEARS). */
export function isLocalDate(value: string): boolean {
  const match = LOCAL_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Epoch ms of an ISO 8601 instant with an offset or Z, or undefined. */
export const parseInstant = (value: string): number | undefined => epochOfInstant(value, INSTANT);

/** Minute of the day of "HH:MM" (00:00..23:59, and 24:00 when `endOfDay` is allowed), or undefined. */
export function parseLocalTime(value: string, options: { endOfDay: boolean }): number | undefined {
  const match = /^(\d{2}):(\d{2})$/.exec(value);
  if (!match || Number(match[2]) > 59) return undefined;
  const minute = Number(match[1]) * 60 + Number(match[2]);
  return minute < MINUTES_PER_DAY || (options.endOfDay && minute === MINUTES_PER_DAY) ? minute : undefined;
}

/** The canonical spelling of an IANA zone name (`europe/london` → `Europe/London`), or undefined. */
export function canonicalZone(name: string): string | undefined {
  if (!ZONE_NAME.test(name)) return undefined;
  try {
    return Temporal.Now.zonedDateTimeISO(name).timeZoneId;
  } catch {
    return undefined;
  }
}

/** A value longer than any valid one is refused for its length before its shape is read. */
export const tooLong = (max: number) => ({ message: `must be at most ${max} characters`, abort: true });

export const instant = z
  .string()
  .max(instantMaxLength, tooLong(instantMaxLength))
  .refine((value) => parseInstant(value) !== undefined, { message: INSTANT_MESSAGE })
  .meta({ ...INSTANT_SHAPE, example: '2027-03-08T09:00:00-05:00' });

export const localDate = z
  .string()
  .max(localDateLength, tooLong(localDateLength))
  .refine(isLocalDate, { message: LOCAL_DATE_MESSAGE })
  .meta(LOCAL_DATE_SHAPE);

export const timeZone = z
  .string()
  .max(zoneNameMaxLength, tooLong(zoneNameMaxLength))
  .refine((value) => canonicalZone(value) !== undefined, { message: ZONE_MESSAGE })
  // The pattern is what the document can say; which names the time zone database holds, it cannot.
  .meta({ pattern: ZONE_NAME.source, example: 'Europe/London' });

/** "HH:MM" of a window's start (00:00–23:59) or, with `endOfDay`, its end (up to 24:00). */
export const localTime = (options: { endOfDay: boolean }) =>
  z
    .string()
    .max(localTimeLength, tooLong(localTimeLength))
    .refine((value) => parseLocalTime(value, options) !== undefined, {
      message: options.endOfDay ? `${LOCAL_TIME_MESSAGE} (00:00–24:00)` : `${LOCAL_TIME_MESSAGE} (00:00–23:59)`,
    })
    .meta({ pattern: '^\\d{2}:\\d{2}$', example: options.endOfDay ? '17:30' : '09:00' });

const DAY_MS = 86_400_000;

/**
 * How many days a search range spans: two local dates count both ends, on the calendar (2027-10-01 to
 * 2027-10-31 is 31 days, whatever daylight saving does in between); two instants their elapsed time, in days.
 * Undefined unless both are dates or both instants.
 */
export function rangeDays(from: string, to: string): number | undefined {
  if (isLocalDate(from) && isLocalDate(to)) return (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
  const [start, end] = [parseInstant(from), parseInstant(to)];
  return start === undefined || end === undefined ? undefined : (end - start) / DAY_MS;
}
