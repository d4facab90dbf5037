import type { schedulingApi } from '@libs/contracts';
import { dayPlan, openIntervals, type ScheduleRules } from '../schedules/schedule-rules';
import { addDays, datesBetween, localDateOf, localToInstant, MINUTES_PER_DAY, MS_PER_MINUTE } from '../time/zoned-time';
import { candidateSlots, type Grid, type Interval } from './slot-grid';

export type Reason = (typeof schedulingApi.SLOT_UNAVAILABLE_REASONS)[number];

/** Time a resource has taken: `occupied` includes an appointment's buffers, `span` is the appointment (or block) itself. */
export interface Occupation {
  occupied: Interval;
  span: Interval;
  kind: 'booked' | 'held' | 'blocked';
}

export interface Buffers {
  beforeMinutes: number;
  afterMinutes: number;
}

/** The part of a policy that decides which starts may be booked now. */
export interface BookingWindow {
  /** Now plus the minimum notice. */
  earliestStart: number;
  /**
   * Slots start before this: the local midnight after the last date a slot may start on (today plus the
   * horizon, in the location's zone), as an instant, so that no slot needs converting to be checked.
   */
  horizonEnd: number;
}

export function bookingWindow(nowMs: number, zone: string, policy: { minNoticeMinutes: number; horizonDays: number }): BookingWindow {
  return {
    earliestStart: nowMs + policy.minNoticeMinutes * MS_PER_MINUTE,
    horizonEnd: localToInstant(addDays(localDateOf(nowMs, zone), policy.horizonDays + 1), 0, zone),
  };
}

/** The occupied interval of a slot with the service's buffers around it. */
export const withBuffers = (slot: Interval, buffers: Buffers): Interval => ({
  start: slot.start - buffers.beforeMinutes * MS_PER_MINUTE,
  end: slot.end + buffers.afterMinutes * MS_PER_MINUTE,
});

const overlaps = (a: Interval, b: Interval) => a.start < b.end && b.start < a.end;

/** Occupations of one resource never overlap (the database forbids it), so sorted by start they are sorted by end too. */
function firstEndingAfter(sorted: readonly Occupation[], instant: number): number {
  let [low, high] = [0, sorted.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle].occupied.end <= instant) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Why a slot cannot be booked now; none means it is free. `occupations` must be sorted by start. */
export function slotReasons(
  slot: Interval,
  buffers: Buffers,
  occupations: readonly Occupation[],
  window: BookingWindow,
): Reason[] {
  const reasons = new Set<Reason>();
  if (slot.start < window.earliestStart) reasons.add('min_notice');
  if (slot.start >= window.horizonEnd) reasons.add('beyond_horizon');
  const needed = withBuffers(slot, buffers);
  for (let i = firstEndingAfter(occupations, needed.start); i < occupations.length && occupations[i].occupied.start < needed.end; i += 1) {
    const taken = occupations[i];
    if (!overlaps(taken.occupied, needed)) continue;
    reasons.add(overlaps(taken.span, slot) ? taken.kind : 'buffer');
  }
  return [...reasons];
}

export interface Unavailable extends Interval {
  reasons: Reason[];
}

/** The free slots of one resource starting in [fromMs, toMs), and (explain) why the rest of the time is not free. */
export function resourceAvailability(input: {
  rules: ScheduleRules;
  grid: Grid;
  buffers: Buffers;
  occupations: readonly Occupation[];
  window: BookingWindow;
  fromMs: number;
  toMs: number;
  explain: boolean;
}): { free: Interval[]; unavailable: Unavailable[] } {
  const { rules, fromMs, toMs } = input;
  const free: Interval[] = [];
  const unavailable: Unavailable[] = input.explain ? closedTime(rules, fromMs, toMs) : [];
  for (const slot of candidateSlots(rules, input.grid, fromMs, toMs)) {
    const reasons = slotReasons(slot, input.buffers, input.occupations, input.window);
    if (reasons.length === 0) free.push({ start: slot.start, end: slot.end });
    else if (input.explain) unavailable.push({ start: slot.start, end: slot.end, reasons });
  }
  unavailable.sort((a, b) => a.start - b.start);
  return { free, unavailable };
}

/** The time in [fromMs, toMs) outside every window: outside_hours, or closed on a date an override closes. */
export function closedTime(rules: ScheduleRules, fromMs: number, toMs: number): Unavailable[] {
  const open = openIntervals(rules, fromMs, toMs).sort((a, b) => a.start - b.start);
  const closedDates = new Set(
    datesBetween(localDateOf(fromMs, rules.zone), localDateOf(toMs, rules.zone)).filter((date) => dayPlan(rules, date).closed),
  );
  const gaps: Unavailable[] = [];
  const addGap = (start: number, end: number) => {
    // A gap is cut at local midnights, so that each piece is named by its own date's plan.
    for (let from = Math.max(start, fromMs); from < Math.min(end, toMs); ) {
      const date = localDateOf(from, rules.zone);
      const midnight = localToInstant(date, MINUTES_PER_DAY, rules.zone);
      const until = Math.min(end, toMs, midnight);
      gaps.push({ start: from, end: until, reasons: [closedDates.has(date) ? 'closed' : 'outside_hours'] });
      from = until;
    }
  };
  let cursor = fromMs;
  for (const interval of open) {
    if (interval.start > cursor) addGap(cursor, interval.start);
    cursor = Math.max(cursor, interval.end);
  }
  addGap(cursor, toMs);
  return gaps;
}
