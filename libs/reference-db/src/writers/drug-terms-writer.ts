import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { drugTerms } from '../drug-terms';

/**
 * Rebuilds the search terms (drug_terms) of these drugs from their names and
 * the brand names of their dosages. Called by both writers: a drug's brands
 * arrive with its products, in later batches than the drug itself.
 */
export async function rebuildDrugTerms(sequelize: Sequelize, drugPks: readonly string[], transaction: Transaction): Promise<void> {
  if (drugPks.length === 0) return;
  const drugs = await sequelize.query<{ id: string; name: string; brands: string[] }>(
    `SELECT d.id::text AS id, d.name,
            ARRAY(SELECT DISTINCT s.brand_name FROM dosages s WHERE s.drug_pk = d.id AND s.brand_name IS NOT NULL) AS brands
       FROM drugs d WHERE d.id = ANY($1::bigint[])`,
    { bind: [drugPks], type: QueryTypes.SELECT, transaction },
  );
  const rows = drugs.flatMap((drug) => drugTerms(drug.name, drug.brands).map(({ term, isName }) => ({ drug_pk: drug.id, term, is_name: isName })));
  await sequelize.query('DELETE FROM drug_terms WHERE drug_pk = ANY($1::bigint[])', { bind: [drugPks], transaction });
  await sequelize.query(
    `INSERT INTO drug_terms (drug_pk, term, is_name)
     SELECT drug_pk, term, is_name FROM jsonb_to_recordset($1::jsonb) AS r(drug_pk bigint, term text, is_name boolean)`,
    { bind: [JSON.stringify(rows)], transaction },
  );
}
