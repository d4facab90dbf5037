import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { FieldChecks } from '@libs/validation';

type Table = 'accounts' | 'categories' | 'students' | 'registration_numbers';

export interface Reference {
  table: Table;
  /** '' means the optional reference is absent. */
  id: string;
  field: string;
}

/**
 * The SQL that finds and locks the rows references point at: CTEs (`<table>_found`, each `FOR KEY SHARE`, in id
 * order, table by table, so found rows cannot vanish before the referring write commits) and `found`, the rows
 * found as (tbl, id). Their ids are bound from $`firstParam` on, one uuid array per table; `expected` is how many
 * rows there are to find.
 */
export interface ReferenceLookup {
  /** The tables looked in, in order: the SQL differs by them alone. */
  tables: string[];
  ctes: string;
  values: string[][];
  expected: number;
}

export function referenceLookup(references: Reference[], firstParam = 1): ReferenceLookup {
  const present = references.filter((r) => r.id !== '');
  const tables = [...new Set(present.map((r) => r.table))];
  const values = tables.map((table) => [...new Set(present.filter((r) => r.table === table).map((r) => r.id.toLowerCase()))]);
  // Locking clauses are allowed in CTEs, not in the arms of a UNION.
  const locks = tables.map(
    (table, i) => `${table}_found AS (SELECT id FROM ${table} WHERE id = ANY($${firstParam + i}::uuid[]) ORDER BY id FOR KEY SHARE)`,
  );
  const arms = tables.map((table) => `SELECT '${table}' AS tbl, id::text FROM ${table}_found`);
  const found = `found AS (${arms.length > 0 ? arms.join(' UNION ALL ') : 'SELECT NULL::text AS tbl, NULL::text AS id WHERE false'})`;
  return { tables, ctes: [...locks, found].join(', '), values, expected: values.reduce((sum, ids) => sum + ids.length, 0) };
}

/** Adds "does not exist" for every reference not among the rows found (`found`: `table:id`, as the lookup gives them). */
export function reportMissing(checks: FieldChecks, references: Reference[], found: Iterable<string>): void {
  const foundKeys = new Set(found);
  for (const reference of references) {
    if (reference.id === '') continue;
    checks.check(foundKeys.has(`${reference.table}:${reference.id.toLowerCase()}`), reference.field, 'does not exist');
  }
}

/**
 * Adds "does not exist" for every reference whose row is missing, in one query
 * whatever the tables and items (a round trip saved on every write); found rows
 * are locked (referenceLookup).
 */
export async function checkReferences(
  sequelize: Sequelize,
  checks: FieldChecks,
  references: Reference[],
  transaction: Transaction,
): Promise<void> {
  const lookup = referenceLookup(references);
  if (lookup.expected === 0) return;
  const rows = await sequelize.query<{ tbl: string; id: string }>(`WITH ${lookup.ctes} SELECT tbl, id FROM found`, {
    bind: lookup.values,
    type: QueryTypes.SELECT,
    transaction,
  });
  reportMissing(checks, references, rows.map((row) => `${row.tbl}:${row.id}`));
}
