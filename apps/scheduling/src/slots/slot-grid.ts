import { MS_PER_MINUTE } from '../time/zoned-time';
import { openIntervals, type OpenInterval, type ScheduleRules } from '../schedule/rules';

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

/** Every slot of the rules that starts in [fromMs, toMs), in order of start. */
export function candidateSlots(rules: ScheduleRules, grid: Grid, fromMs: number, toMs: number): (Interval & { open: OpenInterval })[] {
  return openIntervals(rules, fromMs, toMs)
    .flatMap((open) => slotsIn(open, grid).map((slot) => ({ ...slot, open })))
    .filter((slot) => slot.start >= fromMs && slot.start < toMs)
    .sort((a, b) => a.start - b.start);
}
