import { schedulingFields } from '@libs/contracts';
import type { FieldChecks } from '@libs/validation';
import { type LocalDate } from './zoned-time';

/**
 * What callers send as times, checked before use: an instant must carry its offset (a bare local time is
 * ambiguous and refused, naming the field), a local time is "HH:MM", a zone an IANA name. The text forms are
 * the API contract's (libs/contracts), shared with the gateway.
 */
export const { parseInstant, parseLocalTime } = schedulingFields;
const { canonicalZone, isLocalDate, INSTANT_MESSAGE, ZONE_MESSAGE } = schedulingFields;

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
    checks.check(zone !== undefined, field, ZONE_MESSAGE);
    return zone;
  },
  localDate(checks: FieldChecks, value: string, field: string): LocalDate | undefined {
    checks.date(value, field);
    return isLocalDate(value) ? value : undefined;
  },
};
