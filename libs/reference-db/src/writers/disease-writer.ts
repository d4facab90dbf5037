import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { CtdDisease } from '@libs/source-formats';

/** Inserts or updates diseases by their source id, and rebuilds their search terms. */
export async function upsertDiseases(sequelize: Sequelize, diseases: CtdDisease[], transaction: Transaction): Promise<void> {
  if (diseases.length === 0) return;
  const rows = diseases.map((d) => ({
    disease_id: d.diseaseId,
    name: d.diseaseName,
    alternative_ids: d.altDiseaseIds,
    definition: d.definition,
    parent_ids: d.parentIds,
    tree_numbers: d.treeNumbers,
    parent_tree_numbers: d.parentTreeNumbers,
    synonyms: d.synonyms,
    slim_mappings: d.slimMappings,
  }));
  const upserted = await sequelize.query<{ id: string }>(
    `INSERT INTO diseases (disease_id, name, alternative_ids, definition, parent_ids, tree_numbers,
                           parent_tree_numbers, synonyms, slim_mappings)
     SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(disease_id text, name text, alternative_ids text[],
       definition text, parent_ids text[], tree_numbers text[], parent_tree_numbers text[], synonyms text[],
       slim_mappings text[])
     ON CONFLICT (disease_id) DO UPDATE SET name = excluded.name, alternative_ids = excluded.alternative_ids,
       definition = excluded.definition, parent_ids = excluded.parent_ids, tree_numbers = excluded.tree_numbers,
       parent_tree_numbers = excluded.parent_tree_numbers, synonyms = excluded.synonyms,
       slim_mappings = excluded.slim_mappings, updated_at = now()
     RETURNING id::text`,
    { bind: [JSON.stringify(rows)], type: QueryTypes.SELECT, transaction },
  );
  const ids = upserted.map((row) => row.id);
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
