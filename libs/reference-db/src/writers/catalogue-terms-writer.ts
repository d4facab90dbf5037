import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { conditionTerms, labTestTerms } from '../catalogue-terms';
import { CONDITION_TERMS, LAB_TEST_TERMS } from '../search/term-index';
import { replaceTerms } from './terms-writer';

/** Rebuilds the type-ahead terms (lab_test_terms) of these lab tests from their names and components. */
export async function rebuildLabTestTerms(sequelize: Sequelize, pks: readonly string[], transaction: Transaction): Promise<void> {
  if (pks.length === 0) return;
  const tests = await sequelize.query<{ id: string; name: string; components: string[] }>(
    `SELECT id::text AS id, name, ARRAY(SELECT r ->> 'name' FROM jsonb_array_elements(test_results) AS r) AS components
       FROM lab_tests WHERE id = ANY($1::bigint[])`,
    { bind: [pks], type: QueryTypes.SELECT, transaction },
  );
  await replaceTerms(sequelize, LAB_TEST_TERMS, tests.map((test) => ({ pk: test.id, terms: labTestTerms(test.name, test.components) })), transaction);
}

/** Rebuilds the type-ahead terms (condition_terms) of these conditions from their names. */
export async function rebuildConditionTerms(sequelize: Sequelize, pks: readonly string[], transaction: Transaction): Promise<void> {
  if (pks.length === 0) return;
  const conditions = await sequelize.query<{ id: string; name: string }>('SELECT id::text AS id, name FROM conditions WHERE id = ANY($1::bigint[])', {
    bind: [pks],
    type: QueryTypes.SELECT,
    transaction,
  });
  await replaceTerms(sequelize, CONDITION_TERMS, conditions.map((c) => ({ pk: c.id, terms: conditionTerms(c.name) })), transaction);
}
