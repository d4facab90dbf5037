import type { Sequelize } from 'sequelize';
import { MEMORY_BUDGETS, type auditV1 } from '@libs/contracts';
import { entriesWithin } from './entries-within';
import { toEntry } from './entry-row';

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
 * A page holds at most `limit` entries, fewer when their bodies would pass the
 * page's byte budget (then `cut`: more follow).
 */
export async function listEntries(
  sequelize: Sequelize,
  filters: EntryFilters,
  page: { limit: number; afterSequence?: string },
): Promise<{ rows: auditV1.AuditEntry[]; cut: boolean }> {
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
  const { rows, cut } = await entriesWithin(sequelize, { where, bind, order: 'DESC', limit: page.limit, budgetBytes: MEMORY_BUDGETS.auditPageBytes });
  return { rows: rows.map(toEntry), cut };
}
