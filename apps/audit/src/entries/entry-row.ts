import type { AuditEvent, auditV1 } from '@libs/contracts';
import { currentShape } from './snapshot-versions';

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
  /** The event's schemaVersion; null when it had none (version 1). */
  schema_version: number | null;
  /** The event's subjects; null when it had none (before SUBJECTS_VERSION). */
  subjects: string[] | null;
}

// Note: the output column "sequence" is text, so ORDER BY must name audit_entries.sequence to sort numerically.
export const ENTRY_COLUMNS = `sequence::text, event_id::text, occurred_at, action, entity_type, entity_ids, actor_id,
  actor_role, request_id, before, after, prev_hash, hash, recorded_at, trace_id, schema_version, subjects`;

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
    ...(row.schema_version !== null && { schemaVersion: row.schema_version }),
    ...(row.subjects !== null && { subjects: row.subjects }),
    before: row.before,
    after: row.after,
  };
}

/** An entry as the API shows it: `before`/`after` in the current shape of its entity, whatever version stored them. */
export function toEntry(row: EntryRow): auditV1.AuditEntry {
  const { before, after, schemaVersion, subjects, ...event } = eventOf(row);
  const shown = (snapshot: unknown) => JSON.stringify(currentShape(row.entity_type, schemaVersion, snapshot));
  return {
    ...event,
    beforeJson: shown(before),
    afterJson: shown(after),
    sequence: row.sequence,
    prevHash: row.prev_hash,
    hash: row.hash,
    recordedAt: row.recorded_at.toISOString(),
    traceId: row.trace_id ?? '',
    schemaVersion: schemaVersion ?? 0,
    subjects: subjects ?? [],
  };
}
