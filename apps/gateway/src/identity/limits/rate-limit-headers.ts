import { HttpProblem } from '@libs/http-problems';
import type { KeyLimits } from './key-limits';
import type { RateStatus } from './rate-limiter';

/**
 * The RateLimit-Policy and RateLimit fields of draft-ietf-httpapi-ratelimit-headers-11
 * (May 2026): structured-field lists, one item per policy, named as here.
 */
export type PolicyName = 'minute' | 'day' | 'concurrency';

const DAY_SECONDS = 86_400;

/** The policy that refused a request, and the seconds until a retry can succeed. */
export interface Refusal {
  policy: PolicyName;
  retryAfterSeconds: number;
}

export interface LimitReport {
  limits: KeyLimits;
  rate: RateStatus;
  /** Places left for more calls in progress on this instance. */
  concurrencyRemaining: number;
  refused?: Refusal;
}

/** The policies a key is under; the same on every response for the same key and limits. */
export const policyField = (limits: KeyLimits): string =>
  `"minute";q=${limits.rateLimit};w=60, "day";q=${limits.dailyQuota};w=${DAY_SECONDS}, ` +
  `"concurrency";q=${limits.concurrencyLimit};qu="concurrent-requests"`;

/**
 * What is left under each policy. `t` is the time until the policy is fully
 * restored: within it the client can use no more than `r` (it may get more, as
 * the minute's bucket refills continuously). For the policy that refused a
 * request, `t` is the Retry-After, so that the two agree (draft §6).
 */
export function limitField(report: LimitReport): string {
  const windowOf = (policy: 'minute' | 'day', seconds: number) =>
    report.refused?.policy === policy ? report.refused.retryAfterSeconds : seconds;
  const { minute, day } = report.rate;
  return (
    `"minute";r=${minute.remaining};t=${windowOf('minute', minute.resetSeconds)}, ` +
    `"day";r=${day.remaining};t=${windowOf('day', day.resetSeconds)}, ` +
    `"concurrency";r=${report.concurrencyRemaining}`
  );
}

/** The fields for a response to a request made with a key: its policies and what is left of them. */
export const limitHeaders = (report: LimitReport): Record<string, string> => ({
  'RateLimit-Policy': policyField(report.limits),
  RateLimit: limitField(report),
});

/** The draft's problem type for a request over a quota (§5.1). */
export const QUOTA_EXCEEDED_TYPE = 'https://iana.org/assignments/http-problem-types#quota-exceeded';

const refusalDetail = (policy: PolicyName, limits: KeyLimits, retryAfterSeconds: number): string => {
  switch (policy) {
    case 'minute':
      return `this API key may make ${limits.rateLimit} requests a minute; try again in ${retryAfterSeconds} s`;
    case 'day':
      return `this API key has made its ${limits.dailyQuota} requests for today (UTC); try again in ${retryAfterSeconds} s`;
    case 'concurrency':
      return `this API key already has ${limits.concurrencyLimit} calls in progress on this server; send more as they finish`;
  }
};

/** The 429 for a refused request: Retry-After, and which policy refused it (`violated-policies`). */
export function quotaExceeded(limits: KeyLimits, refused: Refusal, fields: Record<string, string> = {}): HttpProblem {
  return new HttpProblem(429, refusalDetail(refused.policy, limits, refused.retryAfterSeconds), {
    type: QUOTA_EXCEEDED_TYPE,
    headers: { ...fields, 'Retry-After': String(refused.retryAfterSeconds) },
    extensions: { 'violated-policies': [refused.policy] },
  });
}
