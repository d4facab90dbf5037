import { join } from 'node:path';
import { upsertDiseases } from '@libs/reference-db';
import type { DiseaseRecord } from '@libs/contracts';
import { readCtdDiseases } from '@libs/source-formats';
import { sharedDataFile, type ScratchDatabase } from '@libs/testing';

/** The bundled default dataset's diseases (650). */
export const DEFAULT_DISEASES = join(__dirname, '../../default-data/diseases.tsv');

/** The full CTD vocabulary, when the public datasets are present (SHARED_DATA_DIR; never committed); tests that need it skip otherwise. */
export const CTD_DISEASES = sharedDataFile('ctd', 'CTD_diseases.tsv.gz');
export const CTD_ABSENT_NOTE = 'skipping the full-CTD search tests: ctd/CTD_diseases.tsv.gz is absent from the public datasets (set SHARED_DATA_DIR)';

/** Loads a CTD diseases file into a scratch reference database, and analyses it as the import tool does. */
export async function loadDiseases(db: ScratchDatabase, file: string): Promise<void> {
  const batch: DiseaseRecord[] = [];
  const flush = () => db.sequelize.transaction((t) => upsertDiseases(db.sequelize, batch.splice(0), t));
  for await (const row of readCtdDiseases(file)) {
    if ('record' in row) batch.push(row.record);
    if (batch.length === 1000) await flush();
  }
  await flush();
  await db.sequelize.query('ANALYZE');
}
