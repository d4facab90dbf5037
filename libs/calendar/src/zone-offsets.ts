import { Temporal } from 'temporal-polyfill';

/**
 * A zone's offset at an instant, fast. Through the Temporal polyfill each reading costs tens of microseconds,
 * and a slot search or a calendar feed reads thousands of instants of one zone, mostly in order of time (the
 * bench's `slot search` and `calendar feed`, profiled; docs/PERFORMANCE.md). An offset holds from one transition
 * to the next, so each zone's last span is kept and a reading inside it is plain arithmetic. Bounded by the zones
 * there are.
 */

/** One offset of a zone, from a transition (or from the instant looked up, before the zone's first) to the next. */
interface OffsetSpan {
  from: number;
  until: number;
  offsetMs: number;
  /**
   * Where the clock went back at `from`, the instants before this repeat wall-clock times the zone already showed
   * (the second pass of a fall-back hour); `from` itself elsewhere.
   */
  repeatsUntil: number;
}

const spans = new Map<string, OffsetSpan>();
/** The latest instant a Date or a Temporal.Instant can hold: 100 million days after 1970. */
const LAST_INSTANT_MS = 8.64e15;

const zoned = (epochMs: number, zone: string) => Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(zone);
const offsetMsOf = (time: Temporal.ZonedDateTime) => time.offsetNanoseconds / 1_000_000;

function spanAt(epochMs: number, zone: string): OffsetSpan {
  const known = spans.get(zone);
  if (known && epochMs >= known.from && epochMs < known.until) return known;
  const time = zoned(epochMs, zone);
  const offsetMs = offsetMsOf(time);
  // Temporal's 'previous' skips a transition exactly at the instant it starts from: one nanosecond later finds it
  // (except from the last instant Temporal can hold, 8.64e15 ms, where no transition is and adding one throws).
  const previous = (epochMs < LAST_INSTANT_MS ? time.add({ nanoseconds: 1 }) : time).getTimeZoneTransition('previous');
  const from = previous?.epochMilliseconds ?? epochMs;
  const offsetBeforeMs = previous ? offsetMsOf(zoned(from - 1, zone)) : offsetMs;
  const span = {
    from,
    until: time.getTimeZoneTransition('next')?.epochMilliseconds ?? Infinity,
    offsetMs,
    repeatsUntil: from + Math.max(0, offsetBeforeMs - offsetMs),
  };
  spans.set(zone, span);
  return span;
}

/**
 * The instant's wall-clock time in `zone` as the UTC fields of a shifted Date, and whether that wall-clock time
 * was already shown by an earlier instant (a fall-back's repeated hour), or undefined for years outside
 * 1000–9999, which ISO 8601 and iCalendar do not write in four digits: callers answer those through Temporal.
 */
export function wallClock(epochMs: number, zone: string): { local: Date; offsetMs: number; repeated: boolean } | undefined {
  const span = spanAt(epochMs, zone);
  const local = new Date(epochMs + span.offsetMs);
  const year = local.getUTCFullYear();
  return year >= 1000 && year <= 9999 ? { local, offsetMs: span.offsetMs, repeated: epochMs < span.repeatsUntil } : undefined;
}
