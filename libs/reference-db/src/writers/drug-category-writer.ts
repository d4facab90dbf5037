import type { Sequelize, Transaction } from 'sequelize';
import type { DrugCategoryRecord } from '../records';
import { atcLevel, atcParent } from '../source-ids';
import { catalogueTable } from './table';
import { upsertRecords } from './upsert-records';

export class InvalidAtcCodeError extends Error {
  constructor(code: string) {
    super(`"${code}" is not an ATC code (A, A10, A10B, A10BA or A10BA02)`);
    this.name = 'InvalidAtcCodeError';
  }
}

/** A category as stored: its level and parent follow from its code. */
type PlacedCategory = DrugCategoryRecord & { level: number; parentCode?: string };

const DRUG_CATEGORIES = catalogueTable<PlacedCategory>({
  table: 'drug_categories',
  key: 'code',
  idColumn: 'code',
  columns: { code: 'text', name: 'text', level: 'smallint', parent_code: 'text' },
  nullable: ['parent_code'],
});

/** Inserts or updates ATC groups and substances by code; level and parent follow from the code. */
export async function upsertDrugCategories(
  sequelize: Sequelize,
  categories: DrugCategoryRecord[],
  transaction: Transaction,
): Promise<void> {
  const placed = categories.map((c) => {
    const level = atcLevel(c.code);
    if (level === undefined) throw new InvalidAtcCodeError(c.code);
    return { ...c, level, parentCode: atcParent(c.code) };
  });
  await upsertRecords(sequelize, DRUG_CATEGORIES, placed, transaction);
}
