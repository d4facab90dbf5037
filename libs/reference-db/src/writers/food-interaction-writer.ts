import type { Sequelize, Transaction } from 'sequelize';
import type { FoodInteractionRecord } from '../records';
import { catalogueTable } from './table';
import { upsertRecords } from './upsert-records';

const FOOD_INTERACTIONS = catalogueTable<FoodInteractionRecord>({
  table: 'food_interactions',
  key: 'source_id',
  columns: {
    source_id: 'text', drug_name: 'text', drugbank_id: 'text', food: 'text', severity: 'text', effect: 'text', advice: 'text',
  },
  nullable: ['drugbank_id', 'severity'],
});

/** Inserts or updates drug–food interactions by their source id. */
export async function upsertFoodInteractions(
  sequelize: Sequelize,
  interactions: FoodInteractionRecord[],
  transaction: Transaction,
): Promise<void> {
  await upsertRecords(sequelize, FOOD_INTERACTIONS, interactions, transaction);
}
