import type { Sequelize } from 'sequelize';
import { selectRows } from '@libs/db';
import { SqlParams } from './sql-params';

/** Keyset position in a list ordered by name: [lower(name), id]. */
export type NameKey = [string, string];

export interface NamedRow {
  id: string;
  sort_name: string;
}

export const nameKeyOf = (row: NamedRow): NameKey => [row.sort_name, row.id];

/**
 * A page of `table` in (lower(name), id) order, after a keyset position; the
 * table's (lower(name), id) index serves both the order and the position.
 */
export function selectByName<R>(
  sequelize: Sequelize,
  options: {
    table: string;
    /** Columns of `t` besides id, e.g. "t.name, t.units". */
    columns: string;
    where?: (params: SqlParams) => string;
    after?: NameKey;
    limit: number;
  },
): Promise<(R & NamedRow)[]> {
  const params = new SqlParams();
  const where = [options.where?.(params) ?? 'TRUE'];
  if (options.after) {
    where.push(`(lower(t.name), t.id) > (${params.add(options.after[0])}, ${params.add(options.after[1])}::bigint)`);
  }
  return selectRows<R & NamedRow>(
    sequelize,
    `SELECT ${options.columns}, t.id::text AS id, lower(t.name) AS sort_name FROM ${options.table} t
      WHERE ${where.join(' AND ')} ORDER BY lower(t.name), t.id LIMIT ${params.add(options.limit)}`,
    params.values,
  );
}
