import type { Sequelize, Transaction } from 'sequelize';
import type { DosageRecord } from '../records';
import { upsertRows } from './upsert-rows';

/**
 * Inserts or updates dosages by their source id. Each names its drug by the
 * drug's source id; an unknown one throws MissingReferenceError.
 */
export async function upsertDosages(sequelize: Sequelize, dosages: DosageRecord[], transaction: Transaction): Promise<void> {
  const rows = dosages.map((d) => ({
    source_id: d.sourceId,
    drug_source_id: d.drugSourceId,
    form: d.form,
    physical_form: d.physicalForm ?? '',
    admin_method: d.adminMethod ?? '',
    strength: d.strength ?? '',
    marketing_status: d.marketingStatus ?? null,
  }));
  await upsertRows(
    sequelize,
    {
      table: 'dosages',
      key: 'source_id',
      columns: {
        source_id: 'text', form: 'text', physical_form: 'text', admin_method: 'text', strength: 'text',
        marketing_status: 'text',
      },
      reference: { column: 'drug_pk', ref: 'drug_source_id', table: 'drugs', key: 'source_id' },
    },
    rows,
    transaction,
  );
}
