import { Temporal } from 'temporal-polyfill';
import { wallClock } from '@libs/calendar';
import { schedulingFields } from '@libs/contracts';

/**
 * The one place where scheduling converts between local wall-clock times and instants (docs/SCHEDULING.md,
 * "Time zones"). Rules are local times of a location's IANA zone; appointments are instants. The database
 * never converts schedule times (no AT TIME ZONE): everything goes through here, with explicit rules for
 * the two ambiguous cases of a daylight-saving change:
 * - a local time that does not exist (inside a spring-forward gap) means the instant of the transition;
 * - a local time that occurs twice (a fall-back) means its first occurrence.
 * Slot starts then step in elapsed time (epoch milliseconds), never in wall-clock time.
 */

/** A local calendar date, YYYY-MM-DD. */
export type LocalDate = string;

export const { MINUTES_PER_DAY } = schedulingFields;
export const MS_PER_MINUTE = 60_000;

/** The canonical spelling of an IANA zone, or undefined: the contract's rule (libs/contracts), shared with the gateway. */
export const { canonicalZone } = schedulingFields;

const plainDateTime = (date: LocalDate, minuteOfDay: number): Temporal.PlainDateTime =>
  Temporal.PlainDate.from(date)
    .add({ days: Math.floor(minuteOfDay / MINUTES_PER_DAY) })
    .toPlainDateTime({ hour: Math.floor((minuteOfDay % MINUTES_PER_DAY) / 60), minute: minuteOfDay % 60 });

/**
 * Conversions already made: a slot search asks for the same few (every resource of a location opens at the same
 * local times) hundreds of times, and each costs tens of microseconds. The answer of a (zone, date, minute) never
 * changes while the process runs (its time-zone data is loaded once), so they are kept, up to a bound.
 */
const converted = new Map<string, number>();
const MAX_CONVERTED = 100_000;

/**
 * The instant (epoch ms) of a local date and minute of the day (0..1440; 1440 is the next day's midnight) in
 * `zone`: a time in a gap is the transition instant, a repeated time its first occurrence.
 */
export function localToInstant(date: LocalDate, minuteOfDay: number, zone: string): number {
  const key = `${zone} ${date} ${minuteOfDay}`;
  let instant = converted.get(key);
  if (instant === undefined) {
    if (converted.size >= MAX_CONVERTED) converted.clear();
    instant = convert(date, minuteOfDay, zone);
    converted.set(key, instant);
  }
  return instant;
}

function convert(date: LocalDate, minuteOfDay: number, zone: string): number {
  const local = plainDateTime(date, minuteOfDay);
  const earlier = local.toZonedDateTime(zone, { disambiguation: 'earlier' });
  // In a gap, 'earlier' shifts the wall time back by the gap's length; anywhere else it keeps it.
  if (Temporal.PlainDateTime.compare(earlier.toPlainDateTime(), local) === 0) return earlier.epochMilliseconds;
  const transition = earlier.getTimeZoneTransition('next');
  if (!transition) throw new Error(`no transition after ${earlier.toString()}`); // a gap always ends in one
  return transition.epochMilliseconds;
}

const zoned = (epochMs: number, zone: string) => Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(zone);

const pad = (value: number, digits = 2) => String(value).padStart(digits, '0');

const dateOf = (local: Date): LocalDate => `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;

/** The local date of an instant in `zone`. */
export function localDateOf(epochMs: number, zone: string): LocalDate {
  const clock = wallClock(epochMs, zone);
  return clock ? dateOf(clock.local) : zoned(epochMs, zone).toPlainDate().toString();
}

/** The local date and minute of the day of an instant in `zone` (seconds dropped). */
export function localTimeOf(epochMs: number, zone: string): { date: LocalDate; minute: number } {
  const clock = wallClock(epochMs, zone);
  if (clock) return { date: dateOf(clock.local), minute: clock.local.getUTCHours() * 60 + clock.local.getUTCMinutes() };
  const time = zoned(epochMs, zone);
  return { date: time.toPlainDate().toString(), minute: time.hour * 60 + time.minute };
}

/** An instant as ISO 8601 with the zone's offset at that instant, e.g. 2026-11-01T01:30:00-05:00. */
export function formatInstant(epochMs: number, zone: string): string {
  const clock = wallClock(epochMs, zone);
  // Whole milliseconds and whole-minute offsets are spelt here, as Temporal spells them (a fraction without its
  // trailing zeros): every row's created and updated times have milliseconds. Temporal writes the rest (the offsets
  // of seconds that local mean times had before 1900, which it rounds to the minute).
  if (!clock || !Number.isInteger(epochMs) || clock.offsetMs % MS_PER_MINUTE !== 0) {
    return zoned(epochMs, zone).toString({ timeZoneName: 'never' });
  }
  const { local, offsetMs } = clock;
  const minutes = Math.abs(offsetMs) / MS_PER_MINUTE;
  const offset = `${offsetMs < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
  const milliseconds = local.getUTCMilliseconds();
  const fraction = milliseconds === 0 ? '' : `.${pad(milliseconds, 3).replace(/0+$/, '')}`;
  return `${dateOf(local)}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}${fraction}${offset}`;
}

/** ISO weekday of a date: 1 = Monday ... 7 = Sunday. */
export const isoWeekday = (date: LocalDate): number => Temporal.PlainDate.from(date).dayOfWeek;

export const addDays = (date: LocalDate, days: number): LocalDate => Temporal.PlainDate.from(date).add({ days }).toString();

/** The local dates from `first` to `last`, both included. */
export function datesBetween(first: LocalDate, last: LocalDate): LocalDate[] {
  const dates: LocalDate[] = [];
  for (let date = Temporal.PlainDate.from(first); Temporal.PlainDate.compare(date, last) <= 0; date = date.add({ days: 1 })) {
    dates.push(date.toString());
  }
  return dates;
}
