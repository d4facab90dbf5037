import type { ScheduleRules } from '../schedules/schedule-rules';
import { bookingWindow, closedTime, resourceAvailability, type Occupation } from './availability';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString().slice(11, 16);

/** London, open 09:00–11:00 on weekdays; closed by override on 2027-01-06. */
const RULES: ScheduleRules = {
  zone: 'Europe/London',
  weekly: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: 9 * 60, end: 11 * 60 })),
  overrides: new Map([['2027-01-06', { closed: true, windows: [] }]]),
};

const taken = (start: string, end: string, kind: Occupation['kind'], buffers = { before: 0, after: 0 }): Occupation => ({
  span: { start: at(start), end: at(end) },
  occupied: { start: at(start) - buffers.before * 60_000, end: at(end) + buffers.after * 60_000 },
  kind,
});

describe('resourceAvailability', () => {
  const day = { fromMs: at('2027-01-05T00:00:00Z'), toMs: at('2027-01-06T00:00:00Z') };

  it('offers the free slots and explains the others: booked, held, blocked, and buffers on either side', () => {
    const result = resourceAvailability({
      rules: RULES,
      grid: { durationMinutes: 30, stepMinutes: 30 },
      buffers: { beforeMinutes: 0, afterMinutes: 10 },
      occupations: [
        taken('2027-01-05T09:00:00Z', '2027-01-05T09:30:00Z', 'booked', { before: 0, after: 10 }),
        taken('2027-01-05T10:00:00Z', '2027-01-05T10:30:00Z', 'held', { before: 0, after: 10 }),
        taken('2027-01-05T10:40:00Z', '2027-01-05T11:00:00Z', 'blocked'),
      ],
      window: bookingWindow(at('2027-01-01T00:00:00Z'), 'Europe/London', { minNoticeMinutes: 0, horizonDays: 30 }),
      ...day,
      explain: true,
    });
    expect(result.free).toEqual([]);
    expect(result.unavailable.map((u) => [iso(u.start), iso(u.end), u.reasons])).toEqual([
      ['00:00', '09:00', ['outside_hours']],
      ['09:00', '09:30', ['booked']],
      // Free itself, but the booking's 10 minutes after it reach into this one.
      ['09:30', '10:00', ['buffer']],
      ['10:00', '10:30', ['held']],
      ['10:30', '11:00', ['buffer', 'blocked']],
      ['11:00', '00:00', ['outside_hours']],
    ]);
  });

  it('refuses starts inside the minimum notice and beyond the horizon', () => {
    const window = bookingWindow(at('2027-01-05T09:20:00Z'), 'Europe/London', { minNoticeMinutes: 60, horizonDays: 0 });
    const result = resourceAvailability({
      rules: RULES, grid: { durationMinutes: 30, stepMinutes: 30 }, buffers: { beforeMinutes: 0, afterMinutes: 0 }, occupations: [], window,
      fromMs: at('2027-01-05T00:00:00Z'), toMs: at('2027-01-08T00:00:00Z'), explain: true,
    });
    expect(result.free.map((slot) => iso(slot.start))).toEqual(['10:30']);
    expect(result.unavailable.filter((u) => !u.reasons.includes('outside_hours') && !u.reasons.includes('closed')).map((u) => [new Date(u.start).toISOString(), u.reasons])).toEqual([
      ['2027-01-05T09:00:00.000Z', ['min_notice']],
      ['2027-01-05T09:30:00.000Z', ['min_notice']],
      ['2027-01-05T10:00:00.000Z', ['min_notice']],
      ['2027-01-07T09:00:00.000Z', ['beyond_horizon']],
      ['2027-01-07T09:30:00.000Z', ['beyond_horizon']],
      ['2027-01-07T10:00:00.000Z', ['beyond_horizon']],
      ['2027-01-07T10:30:00.000Z', ['beyond_horizon']],
    ]);
  });

  it('calls a day an override closes closed, cut at local midnights', () => {
    const gaps = closedTime(RULES, at('2027-01-05T12:00:00Z'), at('2027-01-07T10:00:00Z'));
    expect(gaps.map((g) => [new Date(g.start).toISOString(), new Date(g.end).toISOString(), g.reasons[0]])).toEqual([
      ['2027-01-05T12:00:00.000Z', '2027-01-06T00:00:00.000Z', 'outside_hours'],
      ['2027-01-06T00:00:00.000Z', '2027-01-07T00:00:00.000Z', 'closed'],
      ['2027-01-07T00:00:00.000Z', '2027-01-07T09:00:00.000Z', 'outside_hours'],
    ]);
  });
});
