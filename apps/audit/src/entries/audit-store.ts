import { QueryTypes, type Sequelize } from 'sequelize';
import type { AuditEvent } from '@libs/contracts';
import { entryHash, GENESIS_HASH } from './entry-hash';

/**
 * Stores an event once. The chain needs one writer at a time, so the append
 * holds a transaction-scoped advisory lock; a redelivered event (same eventId)
 * is recognised under that lock and reported as a duplicate, not stored again.
 */
export async function appendEvent(sequelize: Sequelize, received: AuditEvent): Promise<'stored' | 'duplicate'> {
  // Normalised to what the row gives back, so /verify recomputes the very same hash:
  // timestamps in UTC with milliseconds, and an absent before/after as null.
  const event: AuditEvent = {
    ...received,
    occurredAt: new Date(received.occurredAt).toISOString(),
    before: received.before ?? null,
    after: received.after ?? null,
  };
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
                                  request_id, before, after, prev_hash, hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb, $11, $12)`,
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
        ],
        transaction,
      },
    );
    return 'stored';
  });
}
