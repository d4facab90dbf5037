import fc from 'fast-check';
import { dayPlan, type ScheduleRules, type WeeklyWindow } from '../schedules/schedule-rules';
import { addDays, formatInstant, isoWeekday, localTimeOf, type LocalDate } from '../time/zoned-time';
import { candidateSlots } from './slot-grid';

const HALF_HOUR = { durationMinutes: 30, stepMinutes: 30 };

/** Rules that open every day of the week in the same local windows (minutes of the day). */
function everyDay(zone: string, windows: [number, number][], overrides: ScheduleRules['overrides'] = new Map()): ScheduleRules {
  const weekly: WeeklyWindow[] = [1, 2, 3, 4, 5, 6, 7].flatMap((weekday) => windows.map(([start, end]) => ({ weekday, start, end })));
  return { zone, weekly, overrides };
}

/** The slots that start on one local date, as the location writes them. */
function slotsOn(rules: ScheduleRules, date: LocalDate, grid = HALF_HOUR): string[] {
  const from = Date.parse(`${addDays(date, -2)}T00:00:00Z`);
  const to = Date.parse(`${addDays(date, 2)}T00:00:00Z`);
  return candidateSlots(rules, grid, from, to)
    .filter((slot) => localTimeOf(slot.start, rules.zone).date === date && slot.open.date === date)
    .map((slot) => formatInstant(slot.start, rules.zone));
}

const h = (hours: number) => hours * 60;

describe('slots across daylight-saving changes', () => {
  it.each(['2026-03-08', '2027-03-14'])('New York %s: hours 09:00–17:00 start at 13:00Z', (date) => {
    const [first] = candidateSlots(everyDay('America/New_York', [[h(9), h(17)]]), HALF_HOUR, Date.parse(`${date}T00:00:00Z`), Date.parse(`${date}T23:59:00Z`));
    expect(new Date(first.start).toISOString()).toBe(`${date}T13:00:00.000Z`);
  });

  it.each(['2026-03-08', '2027-03-14'])('New York %s: a 01:00–04:00 window gives 01:00, 01:30, 03:00, 03:30', (date) => {
    expect(slotsOn(everyDay('America/New_York', [[h(1), h(4)]]), date)).toEqual([
      `${date}T01:00:00-05:00`,
      `${date}T01:30:00-05:00`,
      `${date}T03:00:00-04:00`,
      `${date}T03:30:00-04:00`,
    ]);
  });

  it.each(['2026-11-01', '2027-11-07'])('New York %s: a 00:00–03:00 window gives eight slots, 01:00 and 01:30 twice', (date) => {
    expect(slotsOn(everyDay('America/New_York', [[0, h(3)]]), date)).toEqual([
      `${date}T00:00:00-04:00`,
      `${date}T00:30:00-04:00`,
      `${date}T01:00:00-04:00`,
      `${date}T01:30:00-04:00`,
      `${date}T01:00:00-05:00`,
      `${date}T01:30:00-05:00`,
      `${date}T02:00:00-05:00`,
      `${date}T02:30:00-05:00`,
    ]);
  });

  it('Lord Howe 2027-04-04 (back 30 minutes at 02:00): 01:00–03:00 lasts 2.5 hours, 01:30 comes twice', () => {
    expect(slotsOn(everyDay('Australia/Lord_Howe', [[h(1), h(3)]]), '2027-04-04')).toEqual([
      '2027-04-04T01:00:00+11:00',
      '2027-04-04T01:30:00+11:00',
      '2027-04-04T01:30:00+10:30',
      '2027-04-04T02:00:00+10:30',
      '2027-04-04T02:30:00+10:30',
    ]);
  });

  it('Lord Howe 2027-10-03 (forward 30 minutes at 02:00): 01:00–04:00 lasts 2.5 hours, no 02:00', () => {
    expect(slotsOn(everyDay('Australia/Lord_Howe', [[h(1), h(4)]]), '2027-10-03')).toEqual([
      '2027-10-03T01:00:00+10:30',
      '2027-10-03T01:30:00+10:30',
      '2027-10-03T02:30:00+11:00',
      '2027-10-03T03:00:00+11:00',
      '2027-10-03T03:30:00+11:00',
    ]);
  });

  it('Kolkata (+05:30, no daylight saving): 09:00–10:00 starts at 03:30Z and 04:00Z', () => {
    const slots = candidateSlots(everyDay('Asia/Kolkata', [[h(9), h(10)]]), HALF_HOUR, Date.parse('2027-01-05T00:00:00Z'), Date.parse('2027-01-05T12:00:00Z'));
    expect(slots.map((slot) => new Date(slot.start).toISOString())).toEqual(['2027-01-05T03:30:00.000Z', '2027-01-05T04:00:00.000Z']);
  });

  it('a day closed by an override has no slots; one with other hours has those', () => {
    const overrides = new Map([
      ['2027-01-05', { closed: true, windows: [] }],
      ['2027-01-06', { closed: false, windows: [{ start: h(14), end: h(15) }] }],
    ]);
    const rules = everyDay('Europe/London', [[h(9), h(10)]], overrides);
    expect(slotsOn(rules, '2027-01-05')).toEqual([]);
    expect(slotsOn(rules, '2027-01-06')).toEqual(['2027-01-06T14:00:00+00:00', '2027-01-06T14:30:00+00:00']);
    expect(slotsOn(rules, '2027-01-07')).toEqual(['2027-01-07T09:00:00+00:00', '2027-01-07T09:30:00+00:00']);
  });
});

describe('slots, for any zone, date and windows (property)', () => {
  const zones = Intl.supportedValuesOf('timeZone');
  /** One to three non-overlapping windows of a day, on a 5-minute grid. */
  const windows = fc
    .uniqueArray(fc.integer({ min: 0, max: 288 }), { minLength: 2, maxLength: 6 })
    .map((cuts) => cuts.sort((a, b) => a - b).map((cut) => cut * 5))
    .map((cuts) => cuts.flatMap((cut, i) => (i % 2 === 0 && i + 1 < cuts.length ? [[cut, cuts[i + 1]] as [number, number]] : [])));
  const grid = fc
    .record({ durationMinutes: fc.constantFrom(10, 15, 20, 30, 45, 60, 90), extra: fc.constantFrom(0, 5, 15, 30) })
    .map(({ durationMinutes, extra }) => ({ durationMinutes, stepMinutes: durationMinutes + extra }));
  const day = fc.integer({ min: 0, max: 365 * 12 }).map((n) => addDays('2020-01-01', n));

  it('never overlap, never leave the rules, and each start and end read back locally falls inside a window', () => {
    fc.assert(
      fc.property(fc.constantFrom(...zones), day, windows, grid, fc.integer({ min: 1, max: 3 }), (zone, date, dayWindows, slotGrid, days) => {
        const rules = everyDay(zone, dayWindows);
        const from = Date.parse(`${date}T00:00:00Z`);
        const to = from + days * 86_400_000;
        const slots = candidateSlots(rules, slotGrid, from, to);
        slots.forEach((slot, i) => {
          expect(slot.end - slot.start).toBe(slotGrid.durationMinutes * 60_000);
          expect(slot.start).toBeGreaterThanOrEqual(from);
          expect(slot.start).toBeLessThan(to);
          if (i > 0) expect(slot.start).toBeGreaterThanOrEqual(slots[i - 1].end);
          // Read back in the zone, the slot's start and its end fall inside one window of its date. The end is
          // exclusive, so it is read as the slot's last instant: an end at a transition instant (02:00 CET after a
          // 02:50–03:00 CEST slot, or 01:00 after a window to a midnight that a gap skips) is that time.
          const start = localTimeOf(slot.start, zone);
          const last = localTimeOf(slot.end - 1, zone);
          const inside = dayPlan(rules, start.date).windows.some(
            (w) => w.start <= start.minute && start.minute < w.end && last.date === start.date && w.start <= last.minute && last.minute < w.end,
          );
          // The context object names the case when it fails.
          expect({ zone, date: start.date, weekday: isoWeekday(start.date), start: start.minute, last: last.minute, inside }).toMatchObject({ inside: true });
        });
      }),
      // PROPERTY_RUNS=5000 searches harder, e.g. after a change to the conversion layer.
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 150) },
    );
  });
});
