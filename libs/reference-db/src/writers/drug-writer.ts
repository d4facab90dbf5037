import type { Sequelize, Transaction } from 'sequelize';
import type { DrugRecord } from '../records';
import { rebuildDrugTerms } from './drug-terms-writer';
import { catalogueTable } from './table';
import { upsertRecords } from './upsert-records';

const DRUGS = catalogueTable<DrugRecord>({
  table: 'drugs',
  key: 'source_id',
  columns: { source_id: 'text', name: 'text', drugbank_id: 'text', description: 'text' },
  nullable: ['drugbank_id'],
  keepWhenBlank: ['drugbank_id', 'description'],
});

/**
 * Inserts or updates drugs by their source id, and rebuilds their search terms; given ATC codes replace the drug's
 * stored ones.
 */
export async function upsertDrugs(sequelize: Sequelize, drugs: DrugRecord[], transaction: Transaction): Promise<void> {
  const written = await upsertRecords(sequelize, DRUGS, drugs, transaction);
  await rebuildDrugTerms(sequelize, written.map((row) => row.id), transaction);
  const idOf = new Map(written.map((row) => [row.key, row.id]));
  const codes = [...new Map(drugs.filter((d) => d.atcCodes).map((d) => [d.sourceId, d.atcCodes ?? []])).entries()].map(
    ([sourceId, atcCodes]) => ({ drug_pk: idOf.get(sourceId), codes: atcCodes }),
  );
  if (codes.length === 0) return;
  await sequelize.query(
    `WITH given AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(drug_pk bigint, codes text[])),
          cleared AS (DELETE FROM drug_atc_codes WHERE drug_pk IN (SELECT drug_pk FROM given))
     INSERT INTO drug_atc_codes (drug_pk, atc_code)
     SELECT DISTINCT g.drug_pk, c FROM given g, unnest(g.codes) AS c`,
    { bind: [JSON.stringify(codes)], transaction },
  );
}
