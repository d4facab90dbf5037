import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { Logger } from '@libs/logging';
import { readCtdDiseases, type CtdDisease } from '@libs/source-formats';
import { upsertDiseases } from '@libs/reference-db';

const DATASET = 'default';
const BATCH = 500;

/**
 * Loads the bundled dataset once, on first start. The load and its marker row
 * commit together under an advisory lock, so two instances starting at once
 * load it exactly once, and a restart leaves the data as it is.
 */
export async function loadDefaultData(sequelize: Sequelize, dataDir: string, logger: Logger): Promise<void> {
  await sequelize.transaction(async (transaction) => {
    await sequelize.query("SELECT pg_advisory_xact_lock(hashtext('reference:default-data'))", { transaction });
    const loaded = await sequelize.query('SELECT 1 FROM dataset_loads WHERE dataset = $1', {
      bind: [DATASET],
      type: QueryTypes.SELECT,
      transaction,
    });
    if (loaded.length > 0) return;

    const diseasesFile = join(dataDir, 'diseases.tsv');
    if (!existsSync(diseasesFile)) throw new Error(`default dataset not found at ${diseasesFile}`);
    let batch: CtdDisease[] = [];
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
    count += batch.length;
    await sequelize.query('INSERT INTO dataset_loads (dataset, rows) VALUES ($1, $2)', {
      bind: [DATASET, count],
      transaction,
    });
    logger.info({ diseases: count }, 'loaded the default dataset');
  });
}
