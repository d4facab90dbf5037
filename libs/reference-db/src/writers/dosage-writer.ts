import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { DosageRecord } from '../records';
import { rebuildDrugTerms } from './drug-terms-writer';
import { catalogueTable } from './table';
import { upsertRecords } from './upsert-records';

const DOSAGES = catalogueTable<DosageRecord>({
  table: 'dosages',
  key: 'source_id',
  columns: {
    source_id: 'text', form: 'text', physical_form: 'text', admin_method: 'text', strength: 'text', marketing_status: 'text',
    brand_name: 'text',
  },
  nullable: ['marketing_status', 'brand_name'],
  keepWhenBlank: ['brand_name'],
  reference: { column: 'drug_pk', property: 'drugSourceId', table: 'drugs', key: 'source_id' },
});

/**
 * Inserts or updates dosages by their source id. Each names its drug by the
 * drug's source id; an unknown one throws MissingReferenceError. A brand
 * name makes its drug findable by it: the drug's search terms are rebuilt.
 */
export async function upsertDosages(sequelize: Sequelize, dosages: DosageRecord[], transaction: Transaction): Promise<void> {
  const written = await upsertRecords(sequelize, DOSAGES, dosages, transaction);
  const branded = new Set(dosages.filter((dosage) => dosage.brandName).map((dosage) => dosage.sourceId));
  const ids = written.filter((row) => branded.has(row.key)).map((row) => row.id);
  if (ids.length === 0) return;
  const drugs = await sequelize.query<{ drug_pk: string }>('SELECT DISTINCT drug_pk::text FROM dosages WHERE id = ANY($1::bigint[])', {
    bind: [ids],
    type: QueryTypes.SELECT,
    transaction,
  });
  await rebuildDrugTerms(sequelize, drugs.map((row) => row.drug_pk), transaction);
}
