import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { notificationsV1 } from '@libs/contracts';
import { positionOf } from '../keyset-position';

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  owner_id: string;
  event_id: string;
  event_type: string;
  status: string;
  next_attempt_at: Date | null;
  created_at: Date;
  /** created_at as the log's keyset position. */
  position: string;
}

interface AttemptRow {
  delivery_id: string;
  started_at: Date;
  duration_ms: number;
  status: number | null;
  error: string | null;
  error_detail: string | null;
  response_excerpt: string | null;
}

/**
 * A delivery due again now with its whole schedule ahead (a retry, a recovery). Its lease goes too: an attempt in
 * flight records its outcome only under its lease (record-attempt.ts), so it cannot mark the delivery delivered or
 * failed over this. Kept, the lease let an attempt that began before a recovery and ended after it undo the recovery.
 */
export const DUE_AGAIN = "status = 'pending', schedule_position = 0, next_attempt_at = now(), lease_owner = NULL, lease_until = NULL";

export const DELIVERY_COLUMNS = `d.id, d.endpoint_id, e.owner_id, d.event_id, ev.type AS event_type, d.status, d.next_attempt_at, d.created_at,
  ${positionOf('d.created_at')} AS position`;
export const DELIVERY_FROM = 'deliveries d JOIN endpoints e ON e.id = d.endpoint_id JOIN events ev ON ev.event_id = d.event_id';

const toAttempt = (row: AttemptRow): notificationsV1.Attempt => ({
  startedAt: row.started_at.toISOString(),
  durationMs: row.duration_ms,
  status: row.status ?? 0,
  error: row.error ?? '',
  errorDetail: row.error_detail ?? '',
  responseExcerpt: row.response_excerpt ?? '',
});

/** The deliveries as the API shows them, each with its attempts, oldest first (one query for all of them). */
export async function withAttempts(sequelize: Sequelize, rows: DeliveryRow[], transaction?: Transaction): Promise<notificationsV1.Delivery[]> {
  const attempts =
    rows.length === 0
      ? []
      : await sequelize.query<AttemptRow>(
          `SELECT delivery_id, started_at, duration_ms, status, error, error_detail, response_excerpt
             FROM attempts WHERE delivery_id = ANY ($1::uuid[]) ORDER BY id`,
          { bind: [rows.map((row) => row.id)], type: QueryTypes.SELECT, transaction },
        );
  return rows.map((row) => {
    const own = attempts.filter((attempt) => attempt.delivery_id === row.id).map(toAttempt);
    return {
      id: row.id,
      endpointId: row.endpoint_id,
      eventId: row.event_id,
      eventType: row.event_type,
      status: row.status,
      attemptCount: own.length,
      nextAttemptAt: row.status === 'pending' ? (row.next_attempt_at?.toISOString() ?? '') : '',
      createdAt: row.created_at.toISOString(),
      attempts: own,
    };
  });
}

export async function findDelivery(sequelize: Sequelize, id: string, transaction?: Transaction): Promise<DeliveryRow | undefined> {
  const [row] = await sequelize.query<DeliveryRow>(`SELECT ${DELIVERY_COLUMNS} FROM ${DELIVERY_FROM} WHERE d.id = $1`, {
    bind: [id],
    type: QueryTypes.SELECT,
    transaction,
  });
  return row;
}
