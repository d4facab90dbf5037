import { Temporal } from 'temporal-polyfill';
import { dateTimeFields, pad } from './ics-text';
import { wallClock } from './zone-offsets';

/**
 * Local times with TZID, and the VTIMEZONE that defines the zone (RFC 5545 §3.6.5), so that a calendar shows
 * the appointment on the location's clock and knows the location's zone. The VTIMEZONE holds the zone's
 * observances from the one in force at the start to the last one before the end, each written once (DTSTART,
 * no RRULE: the offsets come from the zone database, not a rule guessed from them).
 */

const BEFORE_ANY_TRANSITION = '19700101T000000';

/** A wall-clock time as an iCalendar local DATE-TIME (`20270328T090000`). */
const localDateTime = (t: Temporal.PlainDateTime) =>
  `${pad(t.year, 4)}${pad(t.month)}${pad(t.day)}T${pad(t.hour)}${pad(t.minute)}${pad(t.second)}`;

/** An offset in nanoseconds as an iCalendar UTC-OFFSET (`+0100`, `-0330`, seconds only when there are some). */
function utcOffset(nanoseconds: number): string {
  const seconds = Math.round(nanoseconds / 1e9);
  const sign = seconds < 0 ? '-' : '+';
  const whole = Math.abs(seconds);
  const rest = whole % 60;
  return `${sign}${pad(Math.floor(whole / 3600))}${pad(Math.floor((whole % 3600) / 60))}${rest ? pad(rest) : ''}`;
}

/**
 * The instant as its local time in `zone`, if that local time names it back (RFC 5545 reads a repeated time as its
 * first occurrence). Two per event of a feed: read from the zone's offset span, through Temporal only for years
 * the shifted clock does not write.
 */
export function localTimeOf(instant: string, zone: string): string | undefined {
  const epochMs = Date.parse(instant);
  const clock = Number.isNaN(epochMs) ? undefined : wallClock(epochMs, zone);
  if (!clock) return localTimeThroughTemporal(instant, zone);
  return clock.repeated ? undefined : dateTimeFields(clock.local);
}

/** localTimeOf by Temporal alone: exact for every instant Temporal reads, and the oracle its tests compare with. */
export function localTimeThroughTemporal(instant: string, zone: string): string | undefined {
  const zoned = Temporal.Instant.from(instant).toZonedDateTimeISO(zone);
  const local = zoned.toPlainDateTime();
  const readBack = local.toZonedDateTime(zone, { disambiguation: 'earlier' });
  return readBack.epochNanoseconds === zoned.epochNanoseconds ? localDateTime(local) : undefined;
}

/** One observance: the local time it starts (on the clock before it), and the offsets before and after. */
function observance(transition: Temporal.ZonedDateTime, zone: string): string[] {
  const before = transition.toInstant().subtract({ nanoseconds: 1 }).toZonedDateTimeISO(zone).offsetNanoseconds;
  const after = transition.offsetNanoseconds;
  const onset = transition.toInstant().toZonedDateTimeISO('UTC').toPlainDateTime().add({ nanoseconds: before });
  // Which is "daylight" is a name only (calendars apply the offsets); a move to a larger offset is called daylight.
  const kind = after > before ? 'DAYLIGHT' : 'STANDARD';
  return [`BEGIN:${kind}`, `DTSTART:${localDateTime(onset)}`, `TZOFFSETFROM:${utcOffset(before)}`, `TZOFFSETTO:${utcOffset(after)}`, `END:${kind}`];
}

/** The VTIMEZONE of `zone` covering [start, end]. */
export function vtimezone(zone: string, start: string, end: string): string[] {
  const first = Temporal.Instant.from(start).toZonedDateTimeISO(zone);
  const last = Temporal.Instant.from(end);
  const transitions: Temporal.ZonedDateTime[] = [];
  // Temporal's 'previous' (like 'next') skips a transition exactly at the instant it starts from; one
  // nanosecond later it finds the transition made at the start, which is the observance in force then.
  const inForce = first.add({ nanoseconds: 1 }).getTimeZoneTransition('previous');
  if (inForce) transitions.push(inForce);
  for (let next = first.getTimeZoneTransition('next'); next && Temporal.Instant.compare(next.toInstant(), last) <= 0; next = next.getTimeZoneTransition('next')) {
    transitions.push(next);
  }
  const observances = inForce
    ? transitions.flatMap((transition) => observance(transition, zone))
    : // A zone that never changed offset (or not before the start): one observance from long ago.
      ['BEGIN:STANDARD', `DTSTART:${BEFORE_ANY_TRANSITION}`, `TZOFFSETFROM:${utcOffset(first.offsetNanoseconds)}`, `TZOFFSETTO:${utcOffset(first.offsetNanoseconds)}`, 'END:STANDARD',
        ...transitions.flatMap((transition) => observance(transition, zone))];
  return ['BEGIN:VTIMEZONE', `TZID:${zone}`, ...observances, 'END:VTIMEZONE'];
}
