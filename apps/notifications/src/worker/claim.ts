import { QueryTypes, type Sequelize } from 'sequelize';
import { WEBHOOK_LIMITS } from '@libs/contracts';
import type { BulkReference, ObjectReference } from '@libs/webhooks';
import { SIGNING_SECRETS } from '../endpoints/endpoint-store';

/** One delivery this instance holds a lease on, with all an attempt needs. */
export interface ClaimedDelivery {
  id: string;
  endpoint_id: string;
  event_id: string;
  /** Attempts made since it was (re)queued. */
  schedule_position: number;
  url: string;
  secrets: string[];
  type: string;
  occurred_at: Date;
  object: ObjectReference | BulkReference;
}

/**
 * Claims up to `capacity` due deliveries for `owner` until `leaseMs` from now. An endpoint gets at most its share of
 * leases in flight (WEBHOOK_LIMITS.inFlightPerEndpoint), counting every instance's unexpired ones, so a receiver that
 * hangs holds only that many and the claim hands the rest of the capacity to other endpoints: no head-of-line
 * blocking. Claims of all instances take turns (a transaction-scoped advisory lock), so each counts the leases the
 * others committed; rows being finished are skipped (SKIP LOCKED), and the lease is checked again on the row as
 * locked. A lease that runs out (its instance was killed) makes the delivery claimable again.
 */
export async function claimDue(sequelize: Sequelize, owner: string, capacity: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  return sequelize.transaction(async (transaction) => {
    await sequelize.query("SELECT pg_advisory_xact_lock(hashtext('notifications.claim'))", { transaction });
    return sequelize.query<ClaimedDelivery>(
      `WITH busy AS (
         SELECT endpoint_id, count(*)::int AS leased FROM deliveries WHERE lease_until > now() GROUP BY endpoint_id
       ), due AS (
         SELECT d.id, d.endpoint_id, d.next_attempt_at,
                row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at, d.id) AS turn
           FROM deliveries d JOIN endpoints e ON e.id = d.endpoint_id
          WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND e.enabled
            AND (d.lease_until IS NULL OR d.lease_until <= now())
       ), chosen AS (
         SELECT due.id FROM due LEFT JOIN busy USING (endpoint_id)
          WHERE due.turn <= $perEndpoint::int - coalesce(busy.leased, 0)
          ORDER BY due.next_attempt_at LIMIT $capacity::int
       ), locked AS (
         SELECT d.id FROM deliveries d
          WHERE d.id IN (SELECT id FROM chosen) AND d.status = 'pending' AND (d.lease_until IS NULL OR d.lease_until <= now())
            FOR UPDATE SKIP LOCKED
       )
       UPDATE deliveries d SET lease_owner = $owner::uuid, lease_until = now() + $leaseMs::int * interval '1 millisecond'
         FROM locked, endpoints e, events ev
        WHERE d.id = locked.id AND e.id = d.endpoint_id AND ev.event_id = d.event_id
       RETURNING d.id, d.endpoint_id, d.event_id, d.schedule_position, e.url, ${SIGNING_SECRETS} AS secrets,
                 ev.type, ev.occurred_at, ev.object`,
      {
        bind: { perEndpoint: WEBHOOK_LIMITS.inFlightPerEndpoint, capacity, owner, leaseMs },
        type: QueryTypes.SELECT,
        transaction,
      },
    );
  });
}

/** Gives back every lease `owner` still holds on a pending delivery: a stopping instance's, for others to take at once. */
export async function releaseLeases(sequelize: Sequelize, owner: string): Promise<void> {
  await sequelize.query(
    "UPDATE deliveries SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1 AND status = 'pending'",
    { bind: [owner] },
  );
}
