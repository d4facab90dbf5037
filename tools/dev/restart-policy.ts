/**
 * When `npm start` restarts a service that exited on its own, and when it stops trying.
 *
 * Each failure in a row doubles the wait before the next start, up to a ceiling, so a crash is repaired at once
 * but a service that cannot start (a bad setting, a port in use) does not spin. A run that stayed up for
 * `healthyAfterMs` ends the row: its failure is treated as the first. After `maxFailuresInRow` failures in a
 * row the service is left stopped, with a message saying why: by then trying again will not help.
 */
export interface RestartPolicy {
  /** Wait before restarting after the first failure of a row. */
  firstDelayMs: number;
  /** Ceiling of the doubling wait. */
  maxDelayMs: number;
  /** A run at least this long counts as healthy, so its failure starts a new row. */
  healthyAfterMs: number;
  /** Failures in a row after which the service is not restarted again. */
  maxFailuresInRow: number;
}

/** Waits of 0.5, 1, 2, 4 s, then giving up: about 8 s of tries plus five start-ups, each printed. */
export const RESTART_POLICY: RestartPolicy = {
  firstDelayMs: 500,
  maxDelayMs: 4_000,
  healthyAfterMs: 30_000,
  maxFailuresInRow: 5,
};

export type RestartDecision = { failuresInRow: number } & ({ action: 'restart'; delayMs: number } | { action: 'give up' });

/** What to do after a service exited on its own, `ranForMs` after it was started. */
export function decideRestart(policy: RestartPolicy, failuresInRowBefore: number, ranForMs: number): RestartDecision {
  const failuresInRow = ranForMs >= policy.healthyAfterMs ? 1 : failuresInRowBefore + 1;
  if (failuresInRow >= policy.maxFailuresInRow) return { failuresInRow, action: 'give up' };
  const delayMs = Math.min(policy.firstDelayMs * 2 ** (failuresInRow - 1), policy.maxDelayMs);
  return { failuresInRow, action: 'restart', delayMs };
}
