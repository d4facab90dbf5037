import type { KeyLimits } from './key-limits';
import { RateLimiter } from './rate-limiter';

const limits = (overrides: Partial<KeyLimits> = {}): KeyLimits => ({ rateLimit: 60, dailyQuota: 1_000, concurrencyLimit: 4, ...overrides });
// Noon UTC, so that no test crosses midnight unless it means to.
const NOON = Date.UTC(2026, 5, 1, 12, 0, 0);

describe('the per-key rate limit (a token bucket of rateLimit a minute) and daily quota', () => {
  it('admits a whole minute at once, counting down, then refuses until one request has refilled', () => {
    const limiter = new RateLimiter();
    const remaining: number[] = [];
    for (let i = 0; i < 60; i += 1) {
      const verdict = limiter.take('k', limits(), NOON);
      expect(verdict.admitted).toBe(true);
      remaining.push(verdict.status.minute.remaining);
    }
    expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i));

    const refused = limiter.take('k', limits(), NOON + 400);
    expect(refused).toMatchObject({ admitted: false, violated: 'minute', retryAfterSeconds: 1 });
    expect(refused.status.minute).toEqual({ remaining: 0, resetSeconds: 60 });
    // One a second refills; a refused request took nothing.
    expect(limiter.take('k', limits(), NOON + 1_000).admitted).toBe(true);
    expect(limiter.take('k', limits(), NOON + 1_000).admitted).toBe(false);
    expect(limiter.status('k', limits(), NOON + 60_999).minute.remaining).toBe(59);
    expect(limiter.status('k', limits(), NOON + 61_000).minute).toEqual({ remaining: 60, resetSeconds: 0 });
  });

  it('refuses over the daily quota until UTC midnight, and starts afresh on the next day', () => {
    const limiter = new RateLimiter();
    const small = limits({ dailyQuota: 2 });
    expect(limiter.take('k', small, NOON).status.day).toEqual({ remaining: 1, resetSeconds: 12 * 3_600 });
    expect(limiter.take('k', small, NOON).admitted).toBe(true);
    expect(limiter.take('k', small, NOON)).toMatchObject({ admitted: false, violated: 'day', retryAfterSeconds: 12 * 3_600 });
    expect(limiter.take('k', small, NOON + 12 * 3_600_000)).toMatchObject({ admitted: true, status: { day: { remaining: 1 } } });
  });

  it('keeps keys apart', () => {
    const limiter = new RateLimiter();
    const one = limits({ rateLimit: 1 });
    expect(limiter.take('a', one, NOON).admitted).toBe(true);
    expect(limiter.take('a', one, NOON).admitted).toBe(false);
    expect(limiter.take('b', one, NOON).admitted).toBe(true);
  });

  it("adds what other instances admitted (learnt after a write) to its own, and never forgets its own", () => {
    const limiter = new RateLimiter();
    limiter.take('k', limits(), NOON);
    // Other instances admitted 30 (the bucket owes 31 s), one more came here meanwhile, and 40 today in all.
    limiter.learn('k', { tatMs: NOON + 31_000, tatLimit: 60, day: '2026-06-01', dayRequests: 40 }, 1);
    expect(limiter.status('k', limits(), NOON).minute.remaining).toBe(28);
    expect(limiter.status('k', limits(), NOON).day.remaining).toBe(959);
    // Counts older than what this instance knows change nothing.
    limiter.learn('k', { tatMs: NOON, tatLimit: 60, day: '2026-06-01', dayRequests: 2 }, 0);
    expect(limiter.status('k', limits(), NOON).minute.remaining).toBe(28);
    expect(limiter.status('k', limits(), NOON).day.remaining).toBe(959);
  });

  it('starts a key it has not seen from its stored counts (after a restart), and a new rate limit from a full bucket', () => {
    const limiter = new RateLimiter();
    limiter.seed('k', { tatMs: NOON + 60_000, tatLimit: 60, day: '2026-06-01', dayRequests: 60 }, NOON);
    expect(limiter.take('k', limits(), NOON)).toMatchObject({ admitted: false, violated: 'minute' });
    // A bucket filled under another limit counts as full.
    expect(limiter.take('k', limits({ rateLimit: 120 }), NOON)).toMatchObject({ admitted: true, status: { minute: { remaining: 119 } } });
    limiter.learn('k', { tatMs: NOON + 60_000, tatLimit: 60, day: '2026-06-01', dayRequests: 61 }, 0);
    expect(limiter.status('k', limits({ rateLimit: 120 }), NOON).minute.remaining).toBe(119);
  });

  it('forgets keys unused for two minutes', () => {
    const limiter = new RateLimiter();
    limiter.take('old', limits(), NOON);
    limiter.take('recent', limits(), NOON + 60_000);
    limiter.sweep(NOON + 150_000);
    expect(limiter.knownKeys()).toEqual(['recent']);
  });
});
