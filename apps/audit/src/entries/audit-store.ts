import type { Sequelize } from 'sequelize';
import { pipelinedTransaction } from '@libs/db';
import type { AuditEvent } from '@libs/contracts';
import { entryHash, GENESIS_HASH } from './entry-hash';

export type AppendOutcome = 'stored' | 'duplicate';

const COLUMNS_PER_ROW = 15;

/** Normalised to what the row gives back, so /verify recomputes the very same hash. */
function normalised(received: AuditEvent): AuditEvent {
  return {
    ...received,
    occurredAt: new Date(received.occurredAt).toISOString(), // UTC, milliseconds
    before: received.before ?? null,
    after: received.after ?? null,
  };
}

/**
 * Stores events in the given order, each once. The chain needs one writer at a
 * time, so the append holds a transaction-scoped advisory lock; events already
 * stored (same eventId, also twice in one batch) are recognised under that lock
 * and reported as duplicates. One transaction for the whole batch: all or nothing.
 */
export async function appendEvents(
  sequelize: Sequelize,
  received: AuditEvent[],
  /** The trace each event travelled in, by index; kept beside the entry, outside its hash. */
  traceIds: (string | undefined)[] = [],
): Promise<AppendOutcome[]> {
  const events = received.map(normalised);
  // Two round trips a batch (pipelinedTransaction): BEGIN, the lock and both reads; then the insert and COMMIT.
  return pipelinedTransaction(sequelize, async (rounds) => {
    const [, existing, [last]] = await rounds.run<{ event_id?: string; hash?: string }>([
      { name: 'audit.chain-lock', text: "SELECT pg_advisory_xact_lock(hashtext('audit:chain'))", values: [] },
      {
        name: 'audit.known-events',
        text: 'SELECT event_id::text FROM audit_entries WHERE event_id = ANY($1::uuid[])',
        values: [events.map((e) => e.eventId)],
      },
      { name: 'audit.chain-head', text: 'SELECT hash FROM audit_entries ORDER BY sequence DESC LIMIT 1', values: [] },
    ]);
    const seen = new Set(existing.map((row) => (row.event_id as string).toLowerCase()));
    let prevHash = last?.hash ?? GENESIS_HASH;
    const bind: unknown[] = [];
    const outcomes = events.map((event, index): AppendOutcome => {
      const key = event.eventId.toLowerCase();
      if (seen.has(key)) return 'duplicate';
      seen.add(key);
      const hash = entryHash(prevHash, event);
      bind.push(
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
        hash,
        traceIds[index] ?? null,
        event.schemaVersion ?? null,
        event.subjects ?? null,
      );
      prevHash = hash;
      return 'stored';
    });
    const rows = Array.from({ length: bind.length / COLUMNS_PER_ROW }, (_, row) => {
      const p = (column: number) => `$${row * COLUMNS_PER_ROW + column}`;
      return `(${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}, ${p(9)}::jsonb, ${p(10)}::jsonb, ${p(11)}, ${p(12)}, ${p(13)}, ${p(14)}, ${p(15)})`;
    });
    // Rows are listed in chain order; sequence (bigserial) follows the VALUES order of one INSERT.
    const insert = {
      text: `INSERT INTO audit_entries (event_id, occurred_at, action, entity_type, entity_ids, actor_id, actor_role,
                                        request_id, before, after, prev_hash, hash, trace_id, schema_version, subjects)
             VALUES ${rows.join(', ')}`,
      values: bind,
    };
    await rounds.last(rows.length > 0 ? [insert] : []);
    return outcomes;
  });
}

export async function appendEvent(sequelize: Sequelize, event: AuditEvent, traceId?: string): Promise<AppendOutcome> {
  const [outcome] = await appendEvents(sequelize, [event], [traceId]);
  return outcome;
}
