import type { KeyLimits } from './key-limits';
import { msToNextUtcDay, utcDay } from './utc-day';

const WINDOW_MS = 60_000;
/** A key unused this long is forgotten here; its counts stay in the database and are read again on its next lookup. */
const IDLE_MS = 2 * WINDOW_MS;

/** A key's counts as every gateway instance together has written them. */
export interface SharedUsage {
  /** The rate bucket's theoretical arrival time (ms since the epoch): full again at this instant. Null: never used. */
  tatMs: number | null;
  /** The rate limit the bucket was filled under: under another one it counts as full. */
  tatLimit: number | null;
  /** The UTC day (`YYYY-MM-DD`) dayRequests counts, or null. */
  day: string | null;
  dayRequests: number;
}

/** What the RateLimit header reports for one policy. */
export interface PolicyStatus {
  remaining: number;
  resetSeconds: number;
}

export interface RateStatus {
  minute: PolicyStatus;
  day: PolicyStatus;
}

export type RateVerdict =
  | { admitted: true; status: RateStatus }
  | { admitted: false; status: RateStatus; violated: 'minute' | 'day'; retryAfterSeconds: number };

interface KeyState {
  tatMs: number;
  /** The rate limit tatMs is for; 0 while unknown. */
  rateLimit: number;
  day: string;
  dayRequests: number;
  lastUsedMs: number;
}

/** The time between two admissions at the steady rate. */
const emissionMs = (rateLimit: number) => WINDOW_MS / rateLimit;

/**
 * Per-key rate limit and daily quota, decided in memory. The rate is a token
 * bucket of `rateLimit` requests refilled over a minute, kept as GCRA's one
 * number (the theoretical arrival time); the quota counts admitted requests per
 * UTC day. Every decision uses what this instance knows: the shared counts it
 * last read (`learn`, after each batched write) plus its own admissions since,
 * so no request waits for the database. A key whose rate limit changes (an
 * admin, a new role) starts with a full bucket under the new limit.
 */
export class RateLimiter {
  private readonly keys = new Map<string, KeyState>();
  /** The current UTC day and when it ends, so that most requests format no date. */
  private today = { day: '', endsMs: 0 };

  /** Admits one request (and counts it) or says which limit refuses it and for how long. */
  take(keyId: string, limits: KeyLimits, nowMs: number): RateVerdict {
    const state = this.current(keyId, limits, nowMs);
    const interval = emissionMs(limits.rateLimit);
    const nextTat = Math.max(state.tatMs, nowMs) + interval;
    const rateRefusedForMs = nextTat - nowMs - WINDOW_MS;
    const refused = (violated: 'minute' | 'day', forMs: number): RateVerdict => ({
      admitted: false,
      status: this.statusOf(state, limits, nowMs),
      violated,
      retryAfterSeconds: Math.ceil(forMs / 1000),
    });
    if (rateRefusedForMs > 0) return refused('minute', rateRefusedForMs);
    if (state.dayRequests >= limits.dailyQuota) return refused('day', msToNextUtcDay(nowMs));
    state.tatMs = nextTat;
    state.dayRequests += 1;
    return { admitted: true, status: this.statusOf(state, limits, nowMs) };
  }

  /** The status without taking anything, for a request refused before it counted. */
  status(keyId: string, limits: KeyLimits, nowMs: number): RateStatus {
    return this.statusOf(this.current(keyId, limits, nowMs), limits, nowMs);
  }

  /** A key's counts from its lookup: used only if this instance knows nothing newer. */
  seed(keyId: string, shared: SharedUsage, nowMs: number): void {
    if (this.keys.has(keyId)) return;
    this.keys.set(keyId, { tatMs: 0, rateLimit: shared.tatLimit ?? 0, day: this.dayOf(nowMs), dayRequests: 0, lastUsedMs: nowMs });
    this.learn(keyId, shared, 0);
  }

  /**
   * The shared counts after a batched write, plus this instance's admissions
   * made while that write was under way (`pending`). Never lowers what this
   * instance itself has counted.
   */
  learn(keyId: string, shared: SharedUsage, pending: number): void {
    const state = this.keys.get(keyId);
    if (!state) return;
    if (shared.tatMs !== null && shared.tatLimit === state.rateLimit) {
      state.tatMs = Math.max(state.tatMs, shared.tatMs + pending * emissionMs(state.rateLimit));
    }
    if (shared.day !== null && shared.day >= state.day) {
      const known = shared.dayRequests + pending;
      state.dayRequests = shared.day === state.day ? Math.max(state.dayRequests, known) : known;
      state.day = shared.day;
    }
  }

  /** The keys whose shared counts this instance wants read back with each write. */
  knownKeys(): string[] {
    return [...this.keys.keys()];
  }

  /** Forgets keys unused for a while. */
  sweep(nowMs: number): void {
    for (const [keyId, state] of this.keys) if (nowMs - state.lastUsedMs > IDLE_MS) this.keys.delete(keyId);
  }

  private dayOf(nowMs: number): string {
    if (nowMs >= this.today.endsMs) this.today = { day: utcDay(nowMs), endsMs: nowMs + msToNextUtcDay(nowMs) };
    return this.today.day;
  }

  private current(keyId: string, limits: KeyLimits, nowMs: number): KeyState {
    const today = this.dayOf(nowMs);
    let state = this.keys.get(keyId);
    if (!state) {
      state = { tatMs: 0, rateLimit: limits.rateLimit, day: today, dayRequests: 0, lastUsedMs: nowMs };
      this.keys.set(keyId, state);
    }
    state.lastUsedMs = nowMs;
    if (state.rateLimit !== limits.rateLimit) {
      state.rateLimit = limits.rateLimit;
      state.tatMs = 0;
    }
    if (state.day < today) {
      state.day = today;
      state.dayRequests = 0;
    }
    return state;
  }

  private statusOf(state: KeyState, limits: KeyLimits, nowMs: number): RateStatus {
    const interval = emissionMs(limits.rateLimit);
    const debtMs = Math.max(state.tatMs - nowMs, 0);
    return {
      minute: {
        // Tokens left: the part of the window not yet owed, in whole requests (the epsilon absorbs float error).
        remaining: Math.max(0, Math.min(limits.rateLimit, Math.floor((WINDOW_MS - debtMs) / interval + 1e-9))),
        resetSeconds: Math.ceil(debtMs / 1000),
      },
      day: {
        remaining: Math.max(0, limits.dailyQuota - state.dayRequests),
        resetSeconds: Math.ceil(msToNextUtcDay(nowMs) / 1000),
      },
    };
  }
}
