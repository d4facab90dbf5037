import { foodInteractionSourceId, upsertFoodInteractions } from '@libs/reference-db';
import { readDrugbankFood, type FoodAdvice } from '@libs/source-formats';
import type { ImportSource } from '../import-source';

const sourceIdOf = (row: FoodAdvice) =>
  foodInteractionSourceId({ drugName: row.drugName, drugbankId: row.drugbankId, advice: row.advice });

export const foodSource: ImportSource<FoodAdvice> = {
  name: 'food',
  describe: 'DrugBank drug-food interaction CSV (no header: DrugBank id, drug name, advice)',
  read: readDrugbankFood,
  key: sourceIdOf,
  write: (sequelize, rows, transaction) =>
    upsertFoodInteractions(
      sequelize,
      rows.map((row) => ({ sourceId: sourceIdOf(row), drugName: row.drugName, drugbankId: row.drugbankId, advice: row.advice })),
      transaction,
    ),
};
