import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { ColumnType, Table } from './table';

export class MissingReferenceError extends Error {
  constructor(table: string, missing: string[]) {
    super(`${table}: no ${missing.length === 1 ? 'row' : 'rows'} with source id ${missing.slice(0, 5).join(', ')}`);
    this.name = 'MissingReferenceError';
  }
}

/** What a NOT NULL column holds when the record lacks the value (the column's default in the migration). */
const EMPTY: Partial<Record<ColumnType, unknown>> = { text: '', 'text[]': [], jsonb: [] };

/** The rows of records: each column's value, and the referenced row's key under the reference's property. */
function rowsOf<R>(table: Table<R>, records: readonly R[]): Record<string, unknown>[] {
  const nullable = new Set(table.nullable ?? []);
  const columns = Object.entries(table.columns);
  return records.map((record) => {
    const row: Record<string, unknown> = {};
    for (const [column, { property, type }] of columns) {
      row[column] = record[property] ?? (nullable.has(column) ? null : (EMPTY[type] ?? null));
    }
    if (table.reference) row[table.reference.property] = record[table.reference.property];
    return row;
  });
}

/**
 * Inserts or updates records by their key in one statement. Within one call the
 * last record for a key wins: PostgreSQL refuses to update a row twice in one
 * INSERT … ON CONFLICT, and sources such as the ATC file repeat their codes.
 */
export async function upsertRecords<R>(
  sequelize: Sequelize,
  table: Table<R>,
  records: readonly R[],
  transaction: Transaction,
): Promise<{ id: string; key: string }[]> {
  const rows = [...new Map(rowsOf(table, records).map((row) => [row[table.key], row])).values()];
  if (rows.length === 0) return [];
  const ref = table.reference;
  const names = Object.keys(table.columns);
  const recordType = [
    ...Object.entries(table.columns).map(([name, { type }]) => `${name} ${type}`),
    ...(ref ? [`"${ref.property}" text`] : []),
  ].join(', ');
  const columns = [...names, ...(ref ? [ref.column] : [])];
  const values = [...names.map((c) => `r.${c}`), ...(ref ? ['p.id'] : [])];
  const keep = new Set(table.keepWhenBlank ?? []);
  const updates = columns
    .filter((c) => c !== table.key)
    .map((c) => (keep.has(c) ? `${c} = COALESCE(NULLIF(excluded.${c}, ''), t.${c})` : `${c} = excluded.${c}`));
  const upserted = await sequelize.query<{ id: string; key: string }>(
    `INSERT INTO ${table.table} AS t (${columns.join(', ')})
     SELECT ${values.join(', ')} FROM jsonb_to_recordset($1::jsonb) AS r(${recordType})
     ${ref ? `JOIN ${ref.table} p ON p.${ref.key} = r."${ref.property}"` : ''}
     ON CONFLICT (${table.key}) DO UPDATE SET ${[...updates, 'updated_at = now()'].join(', ')}
     RETURNING ${table.idColumn ?? 'id'}::text AS id, ${table.key} AS key`,
    { bind: [JSON.stringify(rows)], type: QueryTypes.SELECT, transaction },
  );
  if (ref && upserted.length < rows.length) {
    const written = new Set(upserted.map((row) => row.key));
    const missing = rows.filter((row) => !written.has(row[table.key] as string)).map((row) => String(row[ref.property]));
    throw new MissingReferenceError(ref.table, missing);
  }
  return upserted;
}
