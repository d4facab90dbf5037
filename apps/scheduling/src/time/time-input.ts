import { Temporal } from 'temporal-polyfill';
import { isIsoDate, type FieldChecks } from '@libs/validation';
import { canonicalZone, MINUTES_PER_DAY, type LocalDate } from './zoned-time';

/**
 * What callers send as times, checked before use: an instant must carry its offset (a bare local time is
 * ambiguous and refused, naming the field), a local time is "HH:MM", a zone an IANA name.
 */

const INSTANT = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;

/** Epoch ms of an ISO 8601 instant with an offset or Z, or undefined. */
export function parseInstant(value: string): number | undefined {
  const match = INSTANT.exec(value);
  if (!match || !isIsoDate(match[1])) return undefined;
  try {
    return Temporal.Instant.from(value).epochMilliseconds;
  } catch {
    return undefined;
  }
}

export const INSTANT_MESSAGE = 'must be an ISO 8601 instant with an offset or Z, e.g. 2026-03-08T09:00:00-05:00';

/** Minute of the day of "HH:MM" (00:00..23:59, and 24:00 when `endOfDay` is allowed), or undefined. */
export function parseLocalTime(value: string, options: { endOfDay: boolean }): number | undefined {
  const match = /^(\d{2}):(\d{2})$/.exec(value);
  if (!match) return undefined;
  const minute = Number(match[1]) * 60 + Number(match[2]);
  if (Number(match[2]) > 59) return undefined;
  return minute < MINUTES_PER_DAY || (options.endOfDay && minute === MINUTES_PER_DAY) ? minute : undefined;
}

export const formatLocalTime = (minute: number): string =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/** Checks of time fields, added to a FieldChecks; each returns the parsed value (or undefined when refused). */
export const timeChecks = {
  instant(checks: FieldChecks, value: string, field: string): number | undefined {
    const instant = parseInstant(value);
    checks.check(instant !== undefined, field, INSTANT_MESSAGE);
    return instant;
  },
  zone(checks: FieldChecks, value: string, field: string): string | undefined {
    const zone = canonicalZone(value);
    checks.check(zone !== undefined, field, 'must be an IANA time zone, e.g. Europe/London');
    return zone;
  },
  localDate(checks: FieldChecks, value: string, field: string): LocalDate | undefined {
    checks.date(value, field);
    return isIsoDate(value) ? value : undefined;
  },
};
