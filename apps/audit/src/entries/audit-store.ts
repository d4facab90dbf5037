import { QueryTypes, type Sequelize } from 'sequelize';
import type { AuditEvent, auditV1 } from '@libs/contracts';
import { entryHash, GENESIS_HASH } from './entry-hash';

interface EntryRow {
  sequence: string;
  event_id: string;
  occurred_at: Date;
  action: string;
  entity_type: string;
  entity_ids: string[];
  actor_id: string;
  actor_role: string;
  request_id: string;
  before: unknown;
  after: unknown;
  prev_hash: string;
  hash: string;
  recorded_at: Date;
  trace_id: string | null;
}

/**
 * Stores an event once. The chain needs one writer at a time, so the append
 * holds a transaction-scoped advisory lock; a redelivered event (same eventId)
 * is recognised under that lock and reported as a duplicate, not stored again.
 * `traceId` is the trace the event travelled in, if any.
 */
export async function appendEvent(
  sequelize: Sequelize,
  received: AuditEvent,
  traceId?: string,
): Promise<'stored' | 'duplicate'> {
  const event: AuditEvent = { ...received, occurredAt: new Date(received.occurredAt).toISOString() };
  return sequelize.transaction(async (transaction) => {
    await sequelize.query("SELECT pg_advisory_xact_lock(hashtext('audit:chain'))", { transaction });
    const existing = await sequelize.query('SELECT 1 FROM audit_entries WHERE event_id = $1', {
      bind: [event.eventId],
      type: QueryTypes.SELECT,
      transaction,
    });
    if (existing.length > 0) return 'duplicate';
    const [last] = await sequelize.query<{ hash: string }>(
      'SELECT hash FROM audit_entries ORDER BY sequence DESC LIMIT 1',
      { type: QueryTypes.SELECT, transaction },
    );
    const prevHash = last?.hash ?? GENESIS_HASH;
    await sequelize.query(
      `INSERT INTO audit_entries (event_id, occurred_at, action, entity_type, entity_ids, actor_id, actor_role,
                                  request_id, before, after, prev_hash, hash, trace_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb, $11, $12, $13)`,
      {
        bind: [
          event.eventId,
          event.occurredAt,
          event.action,
          event.entityType,
          event.entityIds,
          event.actor.userId,
          event.actor.role,
          event.requestId,
          JSON.stringify(event.before),
          JSON.stringify(event.after),
          prevHash,
          entryHash(prevHash, event),
          traceId ?? null,
        ],
        transaction,
      },
    );
    return 'stored';
  });
}

function toEntry(row: EntryRow): auditV1.AuditEntry {
  return {
    eventId: row.event_id,
    occurredAt: row.occurred_at.toISOString(),
    action: row.action,
    entityType: row.entity_type,
    entityIds: row.entity_ids,
    actor: { userId: row.actor_id, role: row.actor_role },
    requestId: row.request_id,
    beforeJson: JSON.stringify(row.before),
    afterJson: JSON.stringify(row.after),
    sequence: row.sequence,
    prevHash: row.prev_hash,
    hash: row.hash,
    recordedAt: row.recorded_at.toISOString(),
    traceId: row.trace_id ?? '',
  };
}

export interface EntryFilters {
  entityType: string;
  entityId: string;
  action: string;
  limit: number;
}

export async function listEntries(sequelize: Sequelize, filters: EntryFilters): Promise<auditV1.AuditEntry[]> {
  const bind: unknown[] = [];
  const where: string[] = [];
  const add = (clause: (placeholder: string) => string, value: unknown) => {
    bind.push(value);
    where.push(clause(`$${bind.length}`));
  };
  if (filters.entityType) add((p) => `entity_type = ${p}`, filters.entityType);
  if (filters.entityId) add((p) => `entity_ids @> ARRAY[${p}]::text[]`, filters.entityId);
  if (filters.action) add((p) => `action = ${p}`, filters.action);
  bind.push(filters.limit);
  const rows = await sequelize.query<EntryRow>(
    `SELECT sequence::text, event_id::text, occurred_at, action, entity_type, entity_ids, actor_id, actor_role,
            request_id, before, after, prev_hash, hash, recorded_at, trace_id
       FROM audit_entries ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY sequence DESC LIMIT $${bind.length}`,
    { bind, type: QueryTypes.SELECT },
  );
  return rows.map(toEntry);
}
