import type { Sequelize, Transaction } from 'sequelize';
import type { DosageRecord } from '../records';
import { catalogueTable } from './table';
import { upsertRecords } from './upsert-records';

const DOSAGES = catalogueTable<DosageRecord>({
  table: 'dosages',
  key: 'source_id',
  columns: {
    source_id: 'text', form: 'text', physical_form: 'text', admin_method: 'text', strength: 'text', marketing_status: 'text',
  },
  nullable: ['marketing_status'],
  reference: { column: 'drug_pk', property: 'drugSourceId', table: 'drugs', key: 'source_id' },
});

/**
 * Inserts or updates dosages by their source id. Each names its drug by the
 * drug's source id; an unknown one throws MissingReferenceError.
 */
export async function upsertDosages(sequelize: Sequelize, dosages: DosageRecord[], transaction: Transaction): Promise<void> {
  await upsertRecords(sequelize, DOSAGES, dosages, transaction);
}
