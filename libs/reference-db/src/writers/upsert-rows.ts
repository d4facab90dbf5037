import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';

export interface UpsertTarget {
  table: string;
  /** The unique column rows are matched on. */
  key: string;
  /** Column name → SQL type, as jsonb_to_recordset needs them. */
  columns: Record<string, string>;
  /** Text columns where an empty or missing value keeps what is stored rather than blanking it. */
  keepWhenBlank?: readonly string[];
  /** The column returned as `id` (default `id`). */
  idColumn?: string;
  /** Resolve a foreign key from the referenced row's source id: `ref` holds the source id in each row. */
  reference?: { column: string; ref: string; table: string; key: string };
}

export class MissingReferenceError extends Error {
  constructor(table: string, missing: string[]) {
    super(`${table}: no ${missing.length === 1 ? 'row' : 'rows'} with source id ${missing.slice(0, 5).join(', ')}`);
    this.name = 'MissingReferenceError';
  }
}

/**
 * Inserts or updates rows by their key in one statement. Within one call the
 * last row for a key wins: PostgreSQL refuses to update a row twice in one
 * INSERT … ON CONFLICT, and sources such as the ATC file repeat their codes.
 */
export async function upsertRows(
  sequelize: Sequelize,
  target: UpsertTarget,
  rows: Record<string, unknown>[],
  transaction: Transaction,
): Promise<{ id: string; key: string }[]> {
  const unique = [...new Map(rows.map((row) => [row[target.key], row])).values()];
  if (unique.length === 0) return [];
  const ref = target.reference;
  const recordColumns = { ...target.columns, ...(ref ? { [ref.ref]: 'text' } : {}) };
  const recordType = Object.entries(recordColumns).map(([name, type]) => `${name} ${type}`).join(', ');
  const columns = [...Object.keys(target.columns), ...(ref ? [ref.column] : [])];
  const values = [...Object.keys(target.columns).map((c) => `r.${c}`), ...(ref ? ['p.id'] : [])];
  const keep = new Set(target.keepWhenBlank ?? []);
  const updates = columns
    .filter((c) => c !== target.key)
    .map((c) => (keep.has(c) ? `${c} = COALESCE(NULLIF(excluded.${c}, ''), t.${c})` : `${c} = excluded.${c}`));
  const upserted = await sequelize.query<{ id: string; key: string }>(
    `INSERT INTO ${target.table} AS t (${columns.join(', ')})
     SELECT ${values.join(', ')} FROM jsonb_to_recordset($1::jsonb) AS r(${recordType})
     ${ref ? `JOIN ${ref.table} p ON p.${ref.key} = r.${ref.ref}` : ''}
     ON CONFLICT (${target.key}) DO UPDATE SET ${[...updates, 'updated_at = now()'].join(', ')}
     RETURNING ${target.idColumn ?? 'id'}::text AS id, ${target.key} AS key`,
    { bind: [JSON.stringify(unique)], type: QueryTypes.SELECT, transaction },
  );
  if (ref && upserted.length < unique.length) {
    const written = new Set(upserted.map((row) => row.key));
    const missing = unique.filter((row) => !written.has(row[target.key] as string)).map((row) => String(row[ref.ref]));
    throw new MissingReferenceError(ref.table, missing);
  }
  return upserted;
}
