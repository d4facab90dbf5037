import { localTimeOf, MS_PER_MINUTE } from '../time/zoned-time';
import { openIntervals, type OpenInterval, type ScheduleRules } from '../schedules/schedule-rules';

/** How a service cuts open hours into slots. */
export interface Grid {
  durationMinutes: number;
  stepMinutes: number;
}

export interface Interval {
  start: number;
  end: number;
}

/**
 * The slots of one open interval: starts step in elapsed time from the window's start (so a day with a
 * daylight-saving change has as many slots as its open hours really last), and a slot ends inside the window.
 */
export function slotsIn(open: Interval, grid: Grid): Interval[] {
  const duration = grid.durationMinutes * MS_PER_MINUTE;
  const step = grid.stepMinutes * MS_PER_MINUTE;
  const slots: Interval[] = [];
  for (let start = open.start; start + duration <= open.end; start += step) slots.push({ start, end: start + duration });
  return slots;
}

/**
 * Whether a slot, read back on the location's clock, lies in its window: its first and its last instant (the end
 * is exclusive) both fall on the window's date between the window's local times. Stepping in elapsed time keeps
 * every slot in the window on an ordinary day; on a fall-back day a window that starts inside the repeated hour
 * would otherwise also offer the second pass of the times before its start (02:00 CET for a 02:15–03:00 window).
 */
function readsInside(slot: Interval, open: OpenInterval, zone: string): boolean {
  const inWindow = (instant: number) => {
    const local = localTimeOf(instant, zone);
    return local.date === open.date && local.minute >= open.window.start && local.minute < open.window.end;
  };
  return inWindow(slot.start) && inWindow(slot.end - 1);
}

/** Every slot of the rules that starts in [fromMs, toMs), in order of start. */
export function candidateSlots(rules: ScheduleRules, grid: Grid, fromMs: number, toMs: number): (Interval & { open: OpenInterval })[] {
  return openIntervals(rules, fromMs, toMs)
    .flatMap((open) => {
      // Only a window that a daylight-saving change lengthens or shortens needs its slots read back.
      const changed = open.end - open.start !== (open.window.end - open.window.start) * MS_PER_MINUTE;
      return slotsIn(open, grid)
        .filter((slot) => !changed || readsInside(slot, open, rules.zone))
        .map((slot) => ({ ...slot, open }));
    })
    .filter((slot) => slot.start >= fromMs && slot.start < toMs)
    .sort((a, b) => a.start - b.start);
}
