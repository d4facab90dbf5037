export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** The backoff ceiling doubles from this after each failure, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
}

/** For idempotent reads: a couple of quick retries ride out a restarting instance or a reconnecting channel. */
export const READ_RETRY_POLICY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 50, maxDelayMs: 400 };

export interface RetryOptions {
  /** Absolute time (ms since the epoch) by which everything, retries and waits included, must be over. */
  deadline: number;
  policy: RetryPolicy;
  isRetryable: (error: unknown) => boolean;
  onRetry?: (attempt: number, error: unknown, delayMs: number) => void;
  /** Injected in tests; the defaults are the real clock and Math.random. */
  now?: () => number;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` until it succeeds, fails with an error that is not retryable,
 * runs out of attempts, or would run past the deadline (another attempt needs at
 * least as long as the failed one took). Waits use "full jitter"
 * (a random delay up to an exponentially growing ceiling) so that many clients
 * retrying at once do not hit a recovering server in lockstep. Each attempt is
 * given the time that remains, so the whole never outlives the deadline.
 * Only for calls that are safe to repeat.
 */
export async function retryWithinDeadline<T>(
  attempt: (remainingMs: number) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? realSleep;
  const { policy } = options;
  for (let number = 1; ; number += 1) {
    const started = now();
    try {
      return await attempt(Math.max(1, options.deadline - started));
    } catch (error) {
      if (number >= policy.maxAttempts || !options.isRetryable(error)) throw error;
      const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (number - 1));
      const delayMs = Math.floor(random() * ceiling);
      // Another attempt gets what is left after the wait. Less than the failed attempt took (a service that waited
      // seconds for a database connection before answering UNAVAILABLE) would only turn this error into a timeout.
      const failedAfterMs = now() - started;
      if (now() + delayMs + failedAfterMs >= options.deadline) throw error;
      options.onRetry?.(number, error, delayMs);
      await sleep(delayMs);
    }
  }
}
