import { conditionSourceId, upsertConditions, upsertIndications } from '@libs/reference-db';
import { readIndications, type Indication, type ParsedRow, type ReadOptions } from '@libs/source-formats';
import type { ImportSource } from '../import-source';

const conditionOf = (row: Indication) => ({ sourceId: conditionSourceId({ name: row.disease, doid: row.doid }), name: row.disease, doid: row.doid });

/** "NOT" rows say a drug is not indicated: there is nothing to store, so they are reported, not imported. */
async function* indicatedOnly(file: string, options: ReadOptions): AsyncGenerator<ParsedRow<Indication>> {
  for await (const row of readIndications(file, options)) {
    yield 'record' in row && row.record.category === 'NOT'
      ? { line: row.line, error: 'category NOT (not indicated): not stored' }
      : row;
  }
}

export const indicationsSource: ImportSource<Indication> = {
  name: 'indications',
  describe: 'PharmacotherapyDB indications.tsv (doid_id, drugbank_id, disease, drug, category, ...)',
  read: indicatedOnly,
  key: (row) => `${row.doid}|${row.drugbankId}`,
  async write(sequelize, rows, transaction) {
    await upsertConditions(sequelize, rows.map(conditionOf), transaction);
    await upsertIndications(
      sequelize,
      rows.map((row) => ({
        conditionSourceId: conditionOf(row).sourceId,
        drugName: row.drug,
        drugbankId: row.drugbankId,
        type: row.category === 'DM' ? 'treats' : 'symptomatic',
      })),
      transaction,
    );
  },
};
