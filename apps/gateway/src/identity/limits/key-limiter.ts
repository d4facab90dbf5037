import type { Response } from 'express';
import type { Sequelize } from 'sequelize';
import type { Logger } from '@libs/logging';
import { ConcurrencyGate } from './concurrency-gate';
import { keyRefusals } from './key-limit-metrics';
import type { KeyOwner } from '../key-store';
import { RateLimiter, type RateStatus, type SharedUsage } from './rate-limiter';
import { limitHeaders, quotaExceeded, type LimitReport, type Refusal } from './rate-limit-headers';
import { RefusalPacer } from './refusal-pacer';
import { UsageCounter } from './usage-counter';

/** What a request refused for concurrency is told to wait: calls in progress end within their deadline, most far sooner. */
const CONCURRENCY_RETRY_SECONDS = 1;

/**
 * Every request made with an API key passes here once its key is verified
 * (admit): it is admitted under the key's rate limit and daily quota, or
 * refused with a 429; either way the answer carries the RateLimit-Policy and
 * RateLimit fields. Each upstream call it makes then takes one of the key's
 * places on this instance (enter: the concurrency limit). Admitted requests
 * are counted in memory and written in batches (UsageCounter); no request
 * waits for the database.
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
   * Admits the request under its key's rate limit and daily quota (counting
   * it), or rejects with a 429 problem with Retry-After.
   */
  async admit(owner: KeyOwner, res: Response): Promise<void> {
    const now = Date.now();
    const verdict = this.rates.take(owner.keyId, owner.limits, now);
    if (!verdict.admitted) {
      return this.reject(owner, { policy: verdict.violated, retryAfterSeconds: verdict.retryAfterSeconds }, verdict.status, now);
    }
    this.usage.count(owner.keyId, owner.limits.rateLimit, new Date(now));
    for (const [name, value] of Object.entries(limitHeaders(this.report(owner, verdict.status)))) res.setHeader(name, value);
  }

  /**
   * Takes one of the key's places for an upstream call (once admitted), or
   * rejects with a 429: a call never waits in a queue for a place. The
   * function returned gives the place back.
   */
  async enter(owner: KeyOwner | undefined): Promise<() => void> {
    if (!owner) return () => undefined;
    const { keyId, limits } = owner;
    if (this.gate.tryEnter(keyId, limits.concurrencyLimit)) return () => this.gate.leave(keyId);
    const now = Date.now();
    const refused = { policy: 'concurrency' as const, retryAfterSeconds: CONCURRENCY_RETRY_SECONDS };
    return this.reject(owner, refused, this.rates.status(keyId, limits, now), now);
  }

  /** Answers a refusal: 429 with the fields, paced for a key that ignores Retry-After (RefusalPacer). */
  private async reject(owner: KeyOwner, refused: Refusal, rate: RateStatus, now: number): Promise<never> {
    const delay = this.pacer.delayMs(owner.keyId, now);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    keyRefusals.inc({ policy: refused.policy });
    throw quotaExceeded(owner.limits, refused, limitHeaders(this.report(owner, rate, refused)));
  }

  private report(owner: KeyOwner, rate: RateStatus, refused?: Refusal): LimitReport {
    const concurrencyRemaining = Math.max(0, owner.limits.concurrencyLimit - this.gate.held(owner.keyId));
    return { limits: owner.limits, rate, concurrencyRemaining, refused };
  }

  /** Writes the counts so far (tests, and shutdown). */
  flush(): Promise<void> {
    return this.usage.flush();
  }

  stop(): Promise<void> {
    return this.usage.stop();
  }
}
