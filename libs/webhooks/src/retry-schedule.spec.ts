import fc from 'fast-check';
import {
  DEFAULT_RETRY_SCHEDULE,
  RetryScheduleError,
  nextAttemptAt,
  parseRetrySchedule,
  shouldDisableEndpoint,
} from './retry-schedule';

const now = new Date('2026-11-28T10:00:00Z');
const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;

describe('parseRetrySchedule', () => {
  it('reads the decided schedule: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    expect(parseRetrySchedule(DEFAULT_RETRY_SCHEDULE)).toEqual([0, 5 * SECOND, 300 * SECOND, 1800 * SECOND, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR]);
  });

  it('takes milliseconds and spaces, so tests can run the whole schedule', () => {
    expect(parseRetrySchedule('0ms, 50ms, 1s')).toEqual([0, 50, 1000]);
  });

  it.each(['', ',', '5', '5d', '-5s', '1.5s', '5s,,5s', '5 s', 'five', '25h', Array(21).fill('1s').join(','), `${'9'.repeat(20)}s`])(
    'refuses %j, naming the problem',
    (text) => {
      expect(() => parseRetrySchedule(text)).toThrow(RetryScheduleError);
      expect(() => parseRetrySchedule(text)).toThrow(/retry schedule .*expected waits such as 0s,5s/);
    },
  );
});

describe('nextAttemptAt', () => {
  const schedule = parseRetrySchedule(DEFAULT_RETRY_SCHEDULE);

  it('makes the first attempt at once, then waits each step of the schedule, give or take a tenth', () => {
    expect(nextAttemptAt(schedule, 0, now, () => 0.99)).toEqual(now);
    expect(nextAttemptAt(schedule, 1, now, () => 0.5)).toEqual(new Date(now.getTime() + 5 * SECOND));
    expect(nextAttemptAt(schedule, 1, now, () => 0)).toEqual(new Date(now.getTime() + 4.5 * SECOND));
    expect(nextAttemptAt(schedule, 7, now, () => 0.5)).toEqual(new Date(now.getTime() + 10 * HOUR));
  });

  it('gives up after the last step: the delivery is failed', () => {
    expect(nextAttemptAt(schedule, 8, now)).toBeUndefined();
    expect(nextAttemptAt(parseRetrySchedule('0s'), 1, now)).toBeUndefined();
  });

  it('is never before now, and within 10% of the scheduled wait, for any schedule and any draw', () => {
    const anySchedule = fc.array(fc.integer({ min: 0, max: DAY }), { minLength: 1, maxLength: 20 });
    fc.assert(
      fc.property(anySchedule, fc.nat(25), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (waits, made, draw) => {
        const next = nextAttemptAt(waits, made, now, () => draw);
        if (made >= waits.length) return expect(next).toBeUndefined();
        const wait = Number(next) - now.getTime();
        expect(wait).toBeGreaterThanOrEqual(0);
        expect(Math.abs(wait - waits[made])).toBeLessThanOrEqual(waits[made] * 0.1 + 1);
      }),
    );
  });

  it('spreads deliveries that failed together', () => {
    const times = new Set(Array.from({ length: 50 }, () => Number(nextAttemptAt(schedule, 3, now))));
    expect(times.size).toBeGreaterThan(40);
  });
});

describe('shouldDisableEndpoint', () => {
  it('disables an endpoint whose every delivery has failed for 5 days', () => {
    expect(shouldDisableEndpoint(undefined, now)).toBe(false);
    expect(shouldDisableEndpoint(new Date(now.getTime() - 5 * DAY + 1), now)).toBe(false);
    expect(shouldDisableEndpoint(new Date(now.getTime() - 5 * DAY), now)).toBe(true);
  });
});
