import type { Sequelize, Transaction } from 'sequelize';
import type { PremiseRecord } from '../records';
import { upsertRows } from './upsert-rows';

/** Inserts or updates premises (pharmacies, hospitals, clinics, laboratories) by their source id. */
export async function upsertPremises(sequelize: Sequelize, premises: PremiseRecord[], transaction: Transaction): Promise<void> {
  const rows = premises.map((p) => ({
    source_id: p.sourceId,
    name: p.name,
    type: p.type,
    address: p.address,
    phone: p.phone ?? null,
    opening_hours: p.openingHours ?? null,
    latitude: p.latitude ?? null,
    longitude: p.longitude ?? null,
    services: p.services ?? [],
    sample_data: p.sampleData,
  }));
  await upsertRows(
    sequelize,
    {
      table: 'premises',
      key: 'source_id',
      columns: {
        source_id: 'text', name: 'text', type: 'text', address: 'jsonb', phone: 'text', opening_hours: 'text',
        latitude: 'double precision', longitude: 'double precision', services: 'text[]', sample_data: 'boolean',
      },
    },
    rows,
    transaction,
  );
}
