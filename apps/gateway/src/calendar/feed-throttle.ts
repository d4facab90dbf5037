import { CALENDAR_FEED_LIMITS } from '@libs/contracts';
import { HttpProblem } from '@libs/http-problems';
import type { KeyLimits } from '../identity/limits/key-limits';
import { RateLimiter } from '../identity/limits/rate-limiter';
import { QUOTA_EXCEEDED_TYPE } from '../identity/limits/rate-limit-headers';

/** A feed URL's limit, as a key's: a bucket of readsPerMinute refilled over the minute, and no daily quota. */
const FEED_LIMITS: KeyLimits = { rateLimit: CALENDAR_FEED_LIMITS.readsPerMinute, dailyQuota: Number.POSITIVE_INFINITY, concurrencyLimit: 1 };
const SWEEP_EVERY_MS = 60_000;

/**
 * Reads per feed URL, counted in this gateway instance by the token's hash, before the feed is looked up: a
 * flood on one URL, real or not, meets 429 and costs the service nothing, while every other URL has its own
 * bucket. A wrong and a right token are counted alike, so the 429 tells nothing of which is which.
 */
export class FeedThrottle {
  private readonly limiter = new RateLimiter();
  private lastSweepMs = 0;

  admit(tokenHash: string, nowMs = Date.now()): void {
    if (nowMs - this.lastSweepMs > SWEEP_EVERY_MS) {
      this.limiter.sweep(nowMs);
      this.lastSweepMs = nowMs;
    }
    const verdict = this.limiter.take(tokenHash, FEED_LIMITS, nowMs);
    if (verdict.admitted) return;
    throw new HttpProblem(429, `a calendar feed may be read ${FEED_LIMITS.rateLimit} times a minute; try again in ${verdict.retryAfterSeconds} s`, {
      type: QUOTA_EXCEEDED_TYPE,
      headers: { 'Retry-After': String(verdict.retryAfterSeconds) },
    });
  }
}
