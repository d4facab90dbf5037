import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { DISABLE_AFTER_FAILING_MS, nextAttemptAt, type DeliveryOutcome, type RetrySchedule } from '@libs/webhooks';
import { queueEndpointDisabledMail } from '../mail/endpoint-mail';
import type { ClaimedDelivery } from './claim';

/** `orphaned`: the endpoint was deleted while its delivery was attempted; there is nothing left to record. */
export type AttemptVerdict = 'delivered' | 'gone' | 'retry' | 'failed' | 'orphaned';

/** One attempt made, to record: the delivery as claimed and what came of it. */
export interface Attempt {
  claimed: ClaimedDelivery;
  outcome: DeliveryOutcome;
}

/** What recording an attempt decided; `disabled` when it disabled its endpoint. */
export interface AttemptRecord {
  verdict: AttemptVerdict;
  disabled?: 'gone' | 'failing';
}

/** The attempt's row: its answer's status and start, or its failure class and detail. */
function attemptRow({ claimed, outcome }: Attempt) {
  const answered = 'status' in outcome;
  return {
    delivery_id: claimed.id,
    started_at: outcome.startedAt,
    duration_ms: Math.round(outcome.durationMs),
    status: answered ? outcome.status : null,
    error: answered ? null : outcome.failure,
    error_detail: answered ? null : outcome.detail,
    response_excerpt: answered ? outcome.excerpt : null,
  };
}

/**
 * What the attempts say of each endpoint's health, taken in the order they started: `since`, when the last failed,
 * is the start of the failures after its last success (null when the last succeeded); `reset` when one succeeded,
 * so failures before it no longer count; `gone` when one was answered 410.
 */
function healthOf(attempts: readonly Attempt[]) {
  const health = new Map<string, { since: Date | null; reset: boolean; gone: boolean }>();
  for (const { claimed, outcome } of [...attempts].sort((a, b) => a.outcome.startedAt.getTime() - b.outcome.startedAt.getTime())) {
    const endpoint = health.get(claimed.endpoint_id) ?? { since: null, reset: false, gone: false };
    if (outcome.result === 'delivered') Object.assign(endpoint, { since: null, reset: true });
    else endpoint.since ??= outcome.startedAt;
    if (outcome.result === 'gone') endpoint.gone = true;
    health.set(claimed.endpoint_id, endpoint);
  }
  return health;
}

/**
 * Records attempts and what follows from each, in one transaction (the attempts that ended together share its
 * statements and commit): delivered on 2xx; otherwise the next attempt per the schedule, or `failed` once it is
 * spent; 410 disables the endpoint, and so do five days in which every attempt failed (and the owner is told by
 * mail). A delivery's state changes only under this instance's lease: if the lease ran out and another instance took
 * the delivery, that one decides (the attempt is still logged). The records are in the order of `attempts`.
 *
 * The endpoints' rows are locked first (KEY SHARE: attempts do not wait for one another), because deleting an
 * endpoint locks it and then its deliveries: taking a delivery first and the endpoint after would deadlock with a
 * delete. The endpoints whose health changes are then locked for the update in the order of their ids, so that two
 * instances' transactions never wait on each other in a cycle.
 */
export async function recordAttempts(
  sequelize: Sequelize,
  attempts: readonly Attempt[],
  owner: string,
  schedule: RetrySchedule,
): Promise<AttemptRecord[]> {
  return sequelize.transaction(async (transaction) => {
    const run = <R extends object>(sql: string, bind: unknown[]) => sequelize.query<R>(sql, { bind, type: QueryTypes.SELECT, transaction });
    const endpointIds = [...new Set(attempts.map(({ claimed }) => claimed.endpoint_id))].sort();
    const kept = new Map(
      (
        await run<{ id: string; failing: boolean }>(
          'SELECT id, failing_since IS NOT NULL AS failing FROM endpoints WHERE id = ANY ($1::uuid[]) ORDER BY id FOR KEY SHARE',
          [endpointIds],
        )
      ).map((row) => [row.id, row.failing]),
    );
    const recorded = attempts.filter(({ claimed }) => kept.has(claimed.endpoint_id));
    const now = new Date();
    const decided = recorded.map((attempt) => {
      const position = attempt.claimed.schedule_position + 1;
      const next = attempt.outcome.result === 'delivered' ? undefined : nextAttemptAt(schedule, position, now);
      return { attempt, position, next };
    });
    const states = new Map(decided.map((state) => [state.attempt, state]));
    if (recorded.length > 0) {
      await run(
        `INSERT INTO attempts (delivery_id, started_at, duration_ms, status, error, error_detail, response_excerpt)
         SELECT delivery_id, started_at, duration_ms, status, error, error_detail, response_excerpt
           FROM jsonb_to_recordset($1::jsonb)
             AS a(delivery_id uuid, started_at timestamptz, duration_ms int, status int, error text, error_detail text, response_excerpt text)
         RETURNING 1`,
        [JSON.stringify(recorded.map(attemptRow))],
      );
      const deliveries = decided.map(({ attempt, position, next }) => {
        const status = attempt.outcome.result === 'delivered' ? 'delivered' : next ? 'pending' : 'failed';
        return { id: attempt.claimed.id, status, position, next: next ?? null };
      });
      await run(
        `UPDATE deliveries d SET status = s.status, schedule_position = s.position, next_attempt_at = s.next, lease_owner = NULL, lease_until = NULL
           FROM jsonb_to_recordset($1::jsonb) AS s(id uuid, status text, position int, next timestamptz)
          WHERE d.id = s.id AND d.lease_owner = $2 RETURNING 1`,
        [JSON.stringify(deliveries), owner],
      );
    }
    const disabled = await updateHealth(sequelize, healthOf(recorded), kept, transaction);
    return attempts.map((attempt): AttemptRecord => {
      const state = states.get(attempt);
      if (!state) return { verdict: 'orphaned' };
      const { result } = attempt.outcome;
      if (result === 'delivered') return { verdict: 'delivered' };
      const verdict = state.next ? result : 'failed';
      const reason = disabled.get(attempt.claimed.endpoint_id);
      if (!reason) return { verdict };
      // The endpoint was disabled once: one of its attempts says so.
      disabled.delete(attempt.claimed.endpoint_id);
      return { verdict, disabled: reason };
    });
  });
}

/**
 * Sets each endpoint's `failing_since` from its attempts' health (cleared by a success, kept or started by failures,
 * restarted by failures after a success), and disables those answered 410 or failing too long. Returns the ones this
 * transaction disabled, with why; their owners' mail is queued in it.
 */
async function updateHealth(
  sequelize: Sequelize,
  health: ReturnType<typeof healthOf>,
  failing: ReadonlyMap<string, boolean>,
  transaction: Transaction,
): Promise<Map<string, 'gone' | 'failing'>> {
  const run = <R extends object>(sql: string, bind: unknown[]) => sequelize.query<R>(sql, { bind, type: QueryTypes.SELECT, transaction });
  const changes = [...health]
    .filter(([id, endpoint]) => endpoint.since !== null || failing.get(id))
    .map(([id, { since, reset }]) => ({ id, since, reset }));
  const disabled = new Map<string, 'gone' | 'failing'>();
  if (changes.length === 0) return disabled;
  await run('SELECT 1 FROM endpoints WHERE id = ANY ($1::uuid[]) ORDER BY id FOR NO KEY UPDATE', [changes.map(({ id }) => id)]);
  const updated = await run<{ id: string; failing_too_long: boolean | null }>(
    `UPDATE endpoints e
        SET failing_since = CASE WHEN h.since IS NULL THEN NULL WHEN h.reset THEN h.since ELSE coalesce(e.failing_since, h.since) END
       FROM jsonb_to_recordset($1::jsonb) AS h(id uuid, since timestamptz, reset boolean)
      WHERE e.id = h.id AND (h.since IS NOT NULL OR e.failing_since IS NOT NULL)
      RETURNING e.id, e.failing_since <= now() - $2::bigint * interval '1 millisecond' AS failing_too_long`,
    [JSON.stringify(changes), DISABLE_AFTER_FAILING_MS],
  );
  const tooLong = new Set(updated.filter((row) => row.failing_too_long).map((row) => row.id));
  for (const [id, endpoint] of health) {
    const reason = endpoint.gone ? 'gone' : tooLong.has(id) ? 'failing' : undefined;
    if (!reason) continue;
    const [changed] = await run(
      `UPDATE endpoints SET enabled = false, disabled_reason = $2, version = version + 1, updated_at = now()
        WHERE id = $1 AND enabled RETURNING 1`,
      [id, reason],
    );
    if (changed) {
      await queueEndpointDisabledMail(sequelize, id, reason, transaction);
      disabled.set(id, reason);
    }
  }
  return disabled;
}
