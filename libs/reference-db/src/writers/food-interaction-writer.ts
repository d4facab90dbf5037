import type { Sequelize, Transaction } from 'sequelize';
import type { FoodInteractionRecord } from '../records';
import { upsertRows } from './upsert-rows';

/** Inserts or updates drug–food interactions by their source id. */
export async function upsertFoodInteractions(
  sequelize: Sequelize,
  interactions: FoodInteractionRecord[],
  transaction: Transaction,
): Promise<void> {
  const rows = interactions.map((i) => ({
    source_id: i.sourceId,
    drug_name: i.drugName,
    drugbank_id: i.drugbankId ?? null,
    food: i.food ?? '',
    severity: i.severity ?? null,
    effect: i.effect ?? '',
    advice: i.advice,
  }));
  await upsertRows(
    sequelize,
    {
      table: 'food_interactions',
      key: 'source_id',
      columns: {
        source_id: 'text', drug_name: 'text', drugbank_id: 'text', food: 'text', severity: 'text', effect: 'text',
        advice: 'text',
      },
    },
    rows,
    transaction,
  );
}
