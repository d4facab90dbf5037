import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { drugTerms } from '../drug-terms';
import { DRUG_TERMS } from '../search/term-index';
import { replaceTerms } from './terms-writer';

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
  await replaceTerms(sequelize, DRUG_TERMS, drugs.map((drug) => ({ pk: drug.id, terms: drugTerms(drug.name, drug.brands) })), transaction);
}
