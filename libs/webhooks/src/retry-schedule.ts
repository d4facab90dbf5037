/**
 * When a failed delivery is tried again, when it is given up, and when its endpoint is disabled. The schedule is
 * configuration (a service's `configSchema` parses it with parseRetrySchedule), so tests run it in milliseconds.
 */

/** Immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure; after the last, `failed`. */
export const DEFAULT_RETRY_SCHEDULE = '0s,5s,5m,30m,2h,5h,10h,10h';
/** Each wait is stretched or shrunk by up to this share, so deliveries that failed together do not return together. */
export const RETRY_JITTER = 0.1;
/** An endpoint whose every delivery has failed for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 60 * 60 * 1000;

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
const STEP = /^(\d{1,9})(ms|s|m|h)$/;
const MAX_ATTEMPTS = 20;
const MAX_WAIT_MS = 24 * UNIT_MS.h;

/** The wait before each attempt, in milliseconds: the first before the first attempt, each next after a failure. */
export type RetrySchedule = readonly number[];

export class RetryScheduleError extends Error {
  constructor(problem: string) {
    super(`retry schedule ${problem}; expected waits such as ${DEFAULT_RETRY_SCHEDULE} (units ms, s, m, h)`);
    this.name = 'RetryScheduleError';
  }
}

/** Parses `0s,5s,5m,...`; throws a RetryScheduleError naming what is wrong, so a bad setting stops start-up. */
export function parseRetrySchedule(text: string): RetrySchedule {
  const steps = text.split(',').map((step) => step.trim());
  if (steps.length > MAX_ATTEMPTS) throw new RetryScheduleError(`has more than ${MAX_ATTEMPTS} attempts`);
  return steps.map((step) => {
    const match = STEP.exec(step);
    if (!match) throw new RetryScheduleError(`has "${step.slice(0, 20)}", which is not a wait`);
    const wait = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
    if (wait > MAX_WAIT_MS) throw new RetryScheduleError(`has "${step}", longer than 24h`);
    return wait;
  });
}

/**
 * When to make the next attempt, after `attemptsMade` (0 before the first), the last one having ended `now`; or
 * undefined when the schedule is spent and the delivery is `failed`. `random` is Math.random's kind, in [0, 1).
 */
export function nextAttemptAt(
  schedule: RetrySchedule,
  attemptsMade: number,
  now: Date,
  random: () => number = Math.random,
): Date | undefined {
  if (attemptsMade >= schedule.length) return undefined;
  const wait = schedule[attemptsMade] * (1 + RETRY_JITTER * (2 * random() - 1));
  return new Date(now.getTime() + Math.round(wait));
}

/** Whether an endpoint is to be disabled: every delivery has failed since `failingSince` (undefined: none is failing). */
export function shouldDisableEndpoint(failingSince: Date | undefined, now: Date): boolean {
  return failingSince !== undefined && now.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS;
}
