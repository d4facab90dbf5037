import type { Sequelize, Transaction } from 'sequelize';
import type { DrugCategoryRecord } from '../records';
import { atcLevel, atcParent } from '../source-ids';
import { upsertRows } from './upsert-rows';

export class InvalidAtcCodeError extends Error {
  constructor(code: string) {
    super(`"${code}" is not an ATC code (A, A10, A10B, A10BA or A10BA02)`);
    this.name = 'InvalidAtcCodeError';
  }
}

/** Inserts or updates ATC groups and substances by code; level and parent follow from the code. */
export async function upsertDrugCategories(
  sequelize: Sequelize,
  categories: DrugCategoryRecord[],
  transaction: Transaction,
): Promise<void> {
  const rows = categories.map((c) => {
    const level = atcLevel(c.code);
    if (level === undefined) throw new InvalidAtcCodeError(c.code);
    return { code: c.code, name: c.name, level, parent_code: atcParent(c.code) ?? null };
  });
  await upsertRows(
    sequelize,
    {
      table: 'drug_categories',
      key: 'code',
      idColumn: 'code',
      columns: { code: 'text', name: 'text', level: 'smallint', parent_code: 'text' },
    },
    rows,
    transaction,
  );
}
