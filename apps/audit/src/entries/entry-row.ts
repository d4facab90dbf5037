import type { AuditEvent, auditV1 } from '@libs/contracts';

/** A row of audit_entries as the queries select it (sequence as text: bigint does not fit a JS number). */
export interface EntryRow {
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

// Note: the output column "sequence" is text, so ORDER BY must name audit_entries.sequence to sort numerically.
export const ENTRY_COLUMNS = `sequence::text, event_id::text, occurred_at, action, entity_type, entity_ids, actor_id,
  actor_role, request_id, before, after, prev_hash, hash, recorded_at, trace_id`;

/** The event a row was stored from, exactly as it was hashed. */
export function eventOf(row: EntryRow): AuditEvent {
  return {
    eventId: row.event_id,
    occurredAt: row.occurred_at.toISOString(),
    action: row.action,
    entityType: row.entity_type,
    entityIds: row.entity_ids,
    actor: { userId: row.actor_id, role: row.actor_role },
    requestId: row.request_id,
    before: row.before,
    after: row.after,
  };
}

export function toEntry(row: EntryRow): auditV1.AuditEntry {
  const { before, after, ...event } = eventOf(row);
  return {
    ...event,
    beforeJson: JSON.stringify(before),
    afterJson: JSON.stringify(after),
    sequence: row.sequence,
    prevHash: row.prev_hash,
    hash: row.hash,
    recordedAt: row.recorded_at.toISOString(),
    traceId: row.trace_id ?? '',
  };
}
