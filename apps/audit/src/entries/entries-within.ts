import { QueryTypes, type Sequelize } from 'sequelize';
import { ENTRY_COLUMNS, type EntryRow } from './entry-row';

export interface EntriesWithin {
  rows: EntryRow[];
  /** The byte budget left out entries that matched: more follow the last row. */
  cut: boolean;
}

/**
 * Entries matching `where` in sequence order, at most `limit`, and of those only as many as fit `budgetBytes` of
 * `before` and `after` (the first always, however large): a reader holds what the budget allows, not what a count
 * happens to weigh (docs/decisions/0024). The sizes are summed from body_bytes before any body is read, and only
 * the rows taken are read whole.
 */
export async function entriesWithin(
  sequelize: Sequelize,
  query: { where: string[]; bind: unknown[]; order: 'ASC' | 'DESC'; limit: number; budgetBytes: number },
): Promise<EntriesWithin> {
  const { order } = query;
  const bind = [...query.bind, query.limit, query.budgetBytes];
  const [limit, budget] = [`$${bind.length - 1}`, `$${bind.length}`];
  const rows = await sequelize.query<EntryRow & { candidates: number }>(
    `WITH candidates AS (
       SELECT sequence, sum(body_bytes) OVER (ORDER BY sequence ${order}) AS running, row_number() OVER (ORDER BY sequence ${order}) AS n
         FROM (SELECT sequence, body_bytes FROM audit_entries ${query.where.length ? `WHERE ${query.where.join(' AND ')}` : ''}
                ORDER BY sequence ${order} LIMIT ${limit}) AS matching)
     SELECT ${ENTRY_COLUMNS}, (SELECT count(*) FROM candidates)::int AS candidates
       FROM audit_entries JOIN candidates USING (sequence)
      WHERE candidates.n = 1 OR candidates.running <= ${budget}
      ORDER BY audit_entries.sequence ${order}`,
    { bind, type: QueryTypes.SELECT },
  );
  return { rows: rows.map(({ candidates: _, ...row }) => row), cut: rows.length < (rows[0]?.candidates ?? 0) };
}
