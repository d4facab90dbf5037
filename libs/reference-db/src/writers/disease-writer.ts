import type { Sequelize, Transaction } from 'sequelize';
import { DISEASE, type DiseaseRecord } from '@libs/contracts';
import { entityTable } from './table';
import { upsertRecords } from './upsert-records';

const DISEASES = entityTable('diseases', DISEASE);

/** Inserts or updates diseases by their source id, and rebuilds their search terms. */
export async function upsertDiseases(sequelize: Sequelize, diseases: DiseaseRecord[], transaction: Transaction): Promise<void> {
  const ids = (await upsertRecords(sequelize, DISEASES, diseases, transaction)).map((row) => row.id);
  if (ids.length === 0) return;
  await sequelize.query('DELETE FROM disease_terms WHERE disease_pk = ANY($1::bigint[])', { bind: [ids], transaction });
  await sequelize.query(
    `INSERT INTO disease_terms (disease_pk, term, is_name)
     SELECT id, lower(name), true FROM diseases WHERE id = ANY($1::bigint[])
     UNION ALL
     SELECT d.id, lower(s), false FROM diseases d, unnest(d.synonyms) AS s
      WHERE d.id = ANY($1::bigint[]) AND lower(s) <> lower(d.name)
     ON CONFLICT DO NOTHING`,
    { bind: [ids], transaction },
  );
}
