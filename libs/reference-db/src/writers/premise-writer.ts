import type { Sequelize, Transaction } from 'sequelize';
import type { PremiseRecord } from '../records';
import { catalogueTable } from './table';
import { upsertRecords } from './upsert-records';

const PREMISES = catalogueTable<PremiseRecord>({
  table: 'premises',
  key: 'source_id',
  columns: {
    source_id: 'text', name: 'text', type: 'text', address: 'jsonb', phone: 'text', opening_hours: 'text',
    latitude: 'double precision', longitude: 'double precision', services: 'text[]', sample_data: 'boolean',
  },
  nullable: ['phone', 'opening_hours', 'latitude', 'longitude'],
});

/** Inserts or updates premises (pharmacies, hospitals, clinics, laboratories) by their source id. */
export async function upsertPremises(sequelize: Sequelize, premises: PremiseRecord[], transaction: Transaction): Promise<void> {
  await upsertRecords(sequelize, PREMISES, premises, transaction);
}
