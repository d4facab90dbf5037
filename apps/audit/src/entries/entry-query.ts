import { QueryTypes, type Sequelize } from 'sequelize';
import type { auditV1 } from '@libs/contracts';
import { ENTRY_COLUMNS, toEntry, type EntryRow } from './entry-row';

/** Empty strings mean "no filter". */
export interface EntryFilters {
  entityType: string;
  entityId: string;
  action: string;
  actorId: string;
  /** ISO timestamps: occurred_at >= occurredFrom and < occurredBefore. */
  occurredFrom: string;
  occurredBefore: string;
}

/**
 * One page of entries, newest first. Keyset on sequence: `afterSequence` is the
 * last sequence already served, so entries added during a walk never shift it.
 */
export async function listEntries(
  sequelize: Sequelize,
  filters: EntryFilters,
  page: { limit: number; afterSequence?: string },
): Promise<auditV1.AuditEntry[]> {
  const bind: unknown[] = [];
  const where: string[] = [];
  const add = (clause: (placeholder: string) => string, value: unknown) => {
    bind.push(value);
    where.push(clause(`$${bind.length}`));
  };
  if (filters.entityType) add((p) => `entity_type = ${p}`, filters.entityType);
  if (filters.entityId) add((p) => `entity_ids @> ARRAY[${p}]::text[]`, filters.entityId);
  if (filters.action) add((p) => `action = ${p}`, filters.action);
  if (filters.actorId) add((p) => `actor_id = ${p}`, filters.actorId);
  if (filters.occurredFrom) add((p) => `occurred_at >= ${p}::timestamptz`, filters.occurredFrom);
  if (filters.occurredBefore) add((p) => `occurred_at < ${p}::timestamptz`, filters.occurredBefore);
  if (page.afterSequence) add((p) => `sequence < ${p}::bigint`, page.afterSequence);
  bind.push(page.limit);
  const rows = await sequelize.query<EntryRow>(
    `SELECT ${ENTRY_COLUMNS}
       FROM audit_entries ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY audit_entries.sequence DESC LIMIT $${bind.length}`,
    { bind, type: QueryTypes.SELECT },
  );
  return rows.map(toEntry);
}
