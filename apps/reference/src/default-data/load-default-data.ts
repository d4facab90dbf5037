import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { Logger } from '@libs/logging';
import type { DiseaseRecord } from '@libs/contracts';
import { readCtdDiseases } from '@libs/source-formats';
import { upsertDiseases } from '@libs/reference-db';
import { loadCatalogue } from './load-catalogue';

const BATCH = 500;

async function loadDiseases(sequelize: Sequelize, dataDir: string, transaction: Transaction): Promise<Record<string, number>> {
  const diseasesFile = join(dataDir, 'diseases.tsv');
  if (!existsSync(diseasesFile)) throw new Error(`default dataset not found at ${diseasesFile}`);
  let batch: DiseaseRecord[] = [];
  let count = 0;
  for await (const row of readCtdDiseases(diseasesFile)) {
    if ('error' in row) throw new Error(`${diseasesFile}:${row.line}: ${row.error}`);
    batch.push(row.record);
    if (batch.length === BATCH) {
      await upsertDiseases(sequelize, batch, transaction);
      count += batch.length;
      batch = [];
    }
  }
  await upsertDiseases(sequelize, batch, transaction);
  return { diseases: count + batch.length };
}

/** Each part of the bundled dataset has its own marker, so a part added later loads on a database that has the others. */
const DATASETS = [
  { name: 'default', load: loadDiseases },
  { name: 'default-catalogue', load: loadCatalogue },
];

/**
 * Loads the bundled dataset once, on first start. Each load and its marker row
 * commit together under an advisory lock, so two instances starting at once
 * load it exactly once, and a restart leaves the data as it is.
 */
export async function loadDefaultData(sequelize: Sequelize, dataDir: string, logger: Logger): Promise<void> {
  await sequelize.transaction(async (transaction) => {
    await sequelize.query("SELECT pg_advisory_xact_lock(hashtext('reference:default-data'))", { transaction });
    const loaded = await sequelize.query<{ dataset: string }>('SELECT dataset FROM dataset_loads', {
      type: QueryTypes.SELECT,
      transaction,
    });
    const done = new Set(loaded.map((row) => row.dataset));
    for (const dataset of DATASETS.filter((d) => !done.has(d.name))) {
      const counts = await dataset.load(sequelize, dataDir, transaction);
      await sequelize.query('INSERT INTO dataset_loads (dataset, rows) VALUES ($1, $2)', {
        bind: [dataset.name, Object.values(counts).reduce((sum, n) => sum + n, 0)],
        transaction,
      });
      logger.info({ dataset: dataset.name, ...counts }, 'loaded a default dataset');
    }
  });
}
