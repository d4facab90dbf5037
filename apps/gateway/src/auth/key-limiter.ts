import type { Response } from 'express';
import type { Sequelize } from 'sequelize';
import type { HttpProblem } from '@libs/http-problems';
import type { Logger } from '@libs/logging';
import { ConcurrencyGate } from './concurrency-gate';
import { keyRefusals } from './key-limit-metrics';
import type { KeyOwner } from './key-store';
import { RateLimiter, type RateStatus, type SharedUsage } from './rate-limiter';
import { quotaExceeded, setLimitHeaders, type LimitReport, type Refusal } from './rate-limit-headers';
import { RefusalPacer } from './refusal-pacer';
import { UsageCounter } from './usage-counter';

/** What a request refused for concurrency is told to wait: calls in progress end within their deadline, most far sooner. */
const CONCURRENCY_RETRY_SECONDS = 1;

/**
 * Every request made with an API key passes here once its key is verified:
 * it is admitted under the key's rate limit, daily quota and (on the data
 * endpoints) concurrency limit, or refused with a 429. Either way the answer
 * carries the RateLimit-Policy and RateLimit fields. Admitted requests are
 * counted in memory and written in batches (UsageCounter); no request waits
 * for the database.
 */
export class KeyLimiter {
  private readonly rates = new RateLimiter();
  private readonly gate = new ConcurrencyGate();
  private readonly pacer = new RefusalPacer();
  private readonly usage: UsageCounter;

  constructor(sequelize: Sequelize, syncIntervalMs: number, logger: Logger) {
    this.usage = new UsageCounter(
      sequelize,
      syncIntervalMs,
      {
        keysToRead: (nowMs) => {
          this.rates.sweep(nowMs);
          this.pacer.sweep(nowMs);
          return this.rates.knownKeys();
        },
        learn: (keyId, shared, pending) => this.rates.learn(keyId, shared, pending),
      },
      logger,
    );
  }

  /** A key's shared counts from its database lookup, for an instance that knows none yet (after a start, or idle). */
  seed(keyId: string, usage: SharedUsage): void {
    this.rates.seed(keyId, usage, Date.now());
  }

  /**
   * Admits the request, or rejects with a 429 problem with Retry-After (paced
   * for a key that ignores it: RefusalPacer). With `holdsSlot` the request
   * also takes one of the key's places in flight, given back when the
   * response ends or the client goes away.
   */
  async admit(owner: KeyOwner, res: Response, options: { holdsSlot: boolean }): Promise<void> {
    const now = Date.now();
    const refusal = this.decide(owner, res, options, now);
    if (!refusal) return;
    const delay = this.pacer.delayMs(owner.keyId, now);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    throw this.refuse(res, owner, refusal);
  }

  /** Admits (counts, takes a place, sets the fields) and returns nothing, or returns why not. */
  private decide(
    owner: KeyOwner,
    res: Response,
    { holdsSlot }: { holdsSlot: boolean },
    now: number,
  ): (Refusal & { rate: RateStatus }) | undefined {
    const { keyId, limits } = owner;
    // A request refused for concurrency uses none of the rate or the quota.
    if (holdsSlot && !this.gate.tryEnter(keyId, limits.concurrencyLimit)) {
      return { policy: 'concurrency', retryAfterSeconds: CONCURRENCY_RETRY_SECONDS, rate: this.rates.status(keyId, limits, now) };
    }
    const verdict = this.rates.take(keyId, limits, now);
    if (!verdict.admitted) {
      if (holdsSlot) this.gate.leave(keyId);
      return { policy: verdict.violated, retryAfterSeconds: verdict.retryAfterSeconds, rate: verdict.status };
    }
    if (holdsSlot) res.once('close', () => this.gate.leave(keyId));
    this.usage.count(keyId, limits.rateLimit, new Date(now));
    setLimitHeaders(res, this.report(owner, verdict.status));
    return undefined;
  }

  private report(owner: KeyOwner, rate: RateStatus, refused?: Refusal): LimitReport {
    const concurrencyRemaining = Math.max(0, owner.limits.concurrencyLimit - this.gate.held(owner.keyId));
    return { limits: owner.limits, rate, concurrencyRemaining, refused };
  }

  private refuse(res: Response, owner: KeyOwner, { rate, ...refused }: Refusal & { rate: RateStatus }): HttpProblem {
    setLimitHeaders(res, this.report(owner, rate, refused));
    keyRefusals.inc({ policy: refused.policy });
    return quotaExceeded(owner.limits, refused);
  }

  /** Writes the counts so far (tests, and shutdown). */
  flush(): Promise<void> {
    return this.usage.flush();
  }

  stop(): Promise<void> {
    return this.usage.stop();
  }
}
