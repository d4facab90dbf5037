import type { FieldChecks } from '@libs/validation';
import { parseLocalTime } from '../time/time-input';
import { addDays, datesBetween, isoWeekday, localDateOf, localToInstant, type LocalDate } from '../time/zoned-time';

/** Opening hours of one day: local minutes of the day, [start, end); end may be 1440 (midnight after). */
export interface Window {
  start: number;
  end: number;
}

export interface WeeklyWindow extends Window {
  /** ISO weekday, 1 = Monday. */
  weekday: number;
}

/** Another plan for one local date: closed, or open in these windows instead of the weekday's. */
export interface DayOverride {
  closed: boolean;
  windows: Window[];
}

/** A resource's schedule: weekly local hours and date overrides, in the location's zone. */
export interface ScheduleRules {
  zone: string;
  weekly: readonly WeeklyWindow[];
  overrides: ReadonlyMap<LocalDate, DayOverride>;
}

/** The windows of one local date; `closed` when an override closes it. */
export function dayPlan(rules: ScheduleRules, date: LocalDate): { closed: boolean; windows: Window[] } {
  const override = rules.overrides.get(date);
  if (override) return { closed: override.closed, windows: override.closed ? [] : [...override.windows] };
  const weekday = isoWeekday(date);
  return { closed: false, windows: rules.weekly.filter((w) => w.weekday === weekday).sort((a, b) => a.start - b.start) };
}

/** A window of one date as instants. */
export interface OpenInterval {
  date: LocalDate;
  window: Window;
  start: number;
  end: number;
}

/**
 * The open intervals (instants) that overlap [fromMs, toMs). Dates are taken one either side of the range's
 * local dates, so a window near midnight is never missed. A window that a daylight-saving gap swallows whole
 * (02:00–02:30 on a spring-forward day in New York) is empty and left out.
 */
export function openIntervals(rules: ScheduleRules, fromMs: number, toMs: number): OpenInterval[] {
  const first = addDays(localDateOf(fromMs, rules.zone), -1);
  const last = addDays(localDateOf(toMs, rules.zone), 1);
  return datesBetween(first, last).flatMap((date) =>
    dayPlan(rules, date)
      .windows.map((window) => ({
        date,
        window,
        start: localToInstant(date, window.start, rules.zone),
        end: localToInstant(date, window.end, rules.zone),
      }))
      .filter((open) => open.end > open.start && open.end > fromMs && open.start < toMs),
  );
}

/**
 * Checks windows as callers send them ("HH:MM" to "HH:MM"): end after start, and windows of one day
 * (`dayOf` tells which) not overlapping. Adds field errors under `${field}[i]`; returns the parsed windows.
 */
export function checkWindows<T extends { start: string; end: string }>(
  checks: FieldChecks,
  windows: readonly T[],
  field: string,
  dayOf: (window: T) => number,
): (Window & { day: number })[] {
  const parsed: (Window & { day: number; index: number })[] = [];
  windows.forEach((window, index) => {
    const start = parseLocalTime(window.start, { endOfDay: false });
    const end = parseLocalTime(window.end, { endOfDay: true });
    checks.check(start !== undefined, `${field}[${index}].start`, 'must be a local time HH:MM from 00:00 to 23:59');
    checks.check(end !== undefined, `${field}[${index}].end`, 'must be a local time HH:MM from 00:01 to 24:00');
    if (start === undefined || end === undefined) return;
    checks.check(end > start, `${field}[${index}].end`, 'must be after start');
    if (end > start) parsed.push({ start, end, day: dayOf(window), index });
  });
  parsed.sort((a, b) => a.day - b.day || a.start - b.start);
  for (let i = 1; i < parsed.length; i += 1) {
    const [before, window] = [parsed[i - 1], parsed[i]];
    checks.check(before.day !== window.day || before.end <= window.start, `${field}[${window.index}]`, 'overlaps another window of the same day');
  }
  return parsed.map(({ start, end, day }) => ({ start, end, day }));
}
