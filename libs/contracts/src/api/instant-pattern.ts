import { Temporal } from 'temporal-polyfill';
import { yearsPattern } from './year-pattern';

/**
 * An instant with its offset (or Z), as RFC 3339 writes it, on a day of the years from `min` to `max`: the regular
 * expression (no flags) that the validators match and the OpenAPI document states beside `format: date-time`, whose
 * calendar checks (a day and a time that exist) epochOfInstant makes. As RFC 3339 allows, `t` and `z` may be lower
 * case and the seconds 60 (a leap second), and a fraction has up to nine digits; the seconds may be left out.
 */
export const instantPattern = (years: { min: number; max: number }): RegExp =>
  new RegExp(`^${yearsPattern(years)}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?(?:[Zz]|[+-]\\d{2}:\\d{2})$`);

/** Epoch milliseconds of an instant that `pattern` (an instantPattern) matches, on a day and at a time that exist; else undefined. */
export function epochOfInstant(value: string, pattern: RegExp): number | undefined {
  if (!pattern.test(value)) return undefined;
  try {
    return Temporal.Instant.from(value).epochMilliseconds;
  } catch {
    return undefined;
  }
}
