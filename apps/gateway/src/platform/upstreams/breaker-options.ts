import type CircuitBreaker from 'opossum';
import { GrpcStatus } from '@libs/grpc';
import { isServiceError } from './grpc-problem';

/**
 * Only a call that ran into its deadline counts against an upstream's breaker.
 * Every other failure came back at once: the service answered (UNAVAILABLE while
 * its database is away, INTERNAL, ...) or its channel refused the call, so
 * calling again costs almost nothing and is how recovery is noticed the moment
 * it happens. Counting those opened the breaker near the end of a short outage
 * and then refused calls for the whole reset time after it (docs/OPERATIONS.md).
 * A call that times out held a client for the full deadline: that is what the
 * breaker spares everyone, by answering 503 at once while the upstream hangs.
 */
export const countsAgainstBreaker = (error: unknown): boolean =>
  isServiceError(error) && error.code === GrpcStatus.DEADLINE_EXCEEDED;

export function breakerOptions(settings: { timeoutMs: number; resetMs: number }): CircuitBreaker.Options {
  return {
    timeout: false, // the gRPC deadline bounds each call
    // After resetMs one trial call goes through (half-open; the others are still refused): its success closes
    // the breaker, a timeout opens it again. A short reset: a hang that ends is noticed within it.
    resetTimeout: settings.resetMs,
    errorThresholdPercentage: 50,
    volumeThreshold: 10,
    // A timed-out call fails a deadline after it was made; the window spans both, so the two are counted together.
    rollingCountTimeout: 2 * settings.timeoutMs,
    errorFilter: (error: unknown) => !countsAgainstBreaker(error),
  };
}
