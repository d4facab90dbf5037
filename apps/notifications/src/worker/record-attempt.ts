import { QueryTypes, type Sequelize } from 'sequelize';
import { DISABLE_AFTER_FAILING_MS, nextAttemptAt, type DeliveryOutcome, type RetrySchedule } from '@libs/webhooks';
import { queueEndpointDisabledMail } from '../mail/endpoint-mail';
import type { ClaimedDelivery } from './claim';

/** `orphaned`: the endpoint was deleted while its delivery was attempted; there is nothing left to record. */
export type AttemptVerdict = 'delivered' | 'gone' | 'retry' | 'failed' | 'orphaned';

/** The attempt's row: its answer's status and start, or its failure class and detail. */
function attemptColumns(outcome: DeliveryOutcome) {
  const answered = 'status' in outcome;
  return [
    outcome.startedAt,
    Math.round(outcome.durationMs),
    answered ? outcome.status : null,
    answered ? null : outcome.failure,
    answered ? null : outcome.detail,
    answered ? outcome.excerpt : null,
  ];
}

/**
 * Records one attempt and what follows from it, in one transaction: delivered on 2xx; otherwise the next attempt
 * per the schedule, or `failed` once it is spent; 410 disables the endpoint, and so do five days in which every
 * attempt failed (and the owner is told by mail). The delivery's state changes only under this instance's lease: if the lease ran out and another
 * instance took the delivery, that one decides (the attempt is still logged).
 *
 * The endpoint's row is locked first (KEY SHARE: attempts do not wait for one another), because deleting an endpoint
 * locks it and then its deliveries: taking a delivery first and the endpoint after would deadlock with a delete.
 */
export async function recordAttempt(
  sequelize: Sequelize,
  claimed: ClaimedDelivery,
  owner: string,
  outcome: DeliveryOutcome,
  schedule: RetrySchedule,
): Promise<{ verdict: AttemptVerdict; disabled?: 'gone' | 'failing' }> {
  return sequelize.transaction(async (transaction) => {
    const run = (sql: string, bind: unknown[]) => sequelize.query(sql, { bind, type: QueryTypes.SELECT, transaction });
    const [endpointKept] = await run('SELECT 1 FROM endpoints WHERE id = $1 FOR KEY SHARE', [claimed.endpoint_id]);
    if (!endpointKept) return { verdict: 'orphaned' };
    await run(
      `INSERT INTO attempts (delivery_id, started_at, duration_ms, status, error, error_detail, response_excerpt)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING 1`,
      [claimed.id, ...attemptColumns(outcome)],
    );
    const position = claimed.schedule_position + 1;
    if (outcome.result === 'delivered') {
      await run(
        `UPDATE deliveries SET status = 'delivered', schedule_position = $3, next_attempt_at = NULL, lease_owner = NULL, lease_until = NULL
          WHERE id = $1 AND lease_owner = $2 RETURNING 1`,
        [claimed.id, owner, position],
      );
      await run('UPDATE endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL RETURNING 1', [claimed.endpoint_id]);
      return { verdict: 'delivered' };
    }
    const next = nextAttemptAt(schedule, position, new Date());
    await run(
      `UPDATE deliveries SET status = $3, schedule_position = $4, next_attempt_at = $5, lease_owner = NULL, lease_until = NULL
        WHERE id = $1 AND lease_owner = $2 RETURNING 1`,
      [claimed.id, owner, next ? 'pending' : 'failed', position, next ?? null],
    );
    const [endpoint] = await run(
      `UPDATE endpoints SET failing_since = coalesce(failing_since, $2) WHERE id = $1
       RETURNING failing_since <= now() - $3::bigint * interval '1 millisecond' AS failing_too_long`,
      [claimed.endpoint_id, outcome.startedAt, DISABLE_AFTER_FAILING_MS],
    );
    const disabled = outcome.result === 'gone' ? 'gone' : (endpoint as { failing_too_long?: boolean } | undefined)?.failing_too_long ? 'failing' : undefined;
    if (disabled) {
      const [changed] = await run(
        `UPDATE endpoints SET enabled = false, disabled_reason = $2, version = version + 1, updated_at = now()
          WHERE id = $1 AND enabled RETURNING 1`,
        [claimed.endpoint_id, disabled],
      );
      if (changed) {
        await queueEndpointDisabledMail(sequelize, claimed.endpoint_id, disabled, transaction);
        return { verdict: next ? outcome.result : 'failed', disabled };
      }
    }
    return { verdict: next ? outcome.result : 'failed' };
  });
}
