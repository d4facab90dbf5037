import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { FieldChecks } from './fields';

type Table = 'accounts' | 'categories' | 'students' | 'registration_numbers';

export interface Reference {
  table: Table;
  /** '' means the optional reference is absent. */
  id: string;
  field: string;
}

/**
 * Adds "does not exist" for every reference whose row is missing, with one
 * query per table however many items refer to it. Found rows are locked (KEY
 * SHARE) so they cannot vanish before the referring write commits.
 */
export async function checkReferences(
  sequelize: Sequelize,
  checks: FieldChecks,
  references: Reference[],
  transaction: Transaction,
): Promise<void> {
  const present = references.filter((r) => r.id !== '');
  const tables = [...new Set(present.map((r) => r.table))];
  const found = new Set<string>();
  for (const table of tables) {
    const ids = [...new Set(present.filter((r) => r.table === table).map((r) => r.id))];
    const rows = await sequelize.query<{ id: string }>(
      `SELECT id FROM ${table} WHERE id = ANY($1::uuid[]) ORDER BY id FOR KEY SHARE`,
      { bind: [ids], type: QueryTypes.SELECT, transaction },
    );
    for (const row of rows) found.add(`${table}:${row.id}`);
  }
  for (const reference of present) {
    checks.check(found.has(`${reference.table}:${reference.id.toLowerCase()}`), reference.field, 'does not exist');
  }
}
