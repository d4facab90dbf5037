import type { Migration } from '@libs/db';

/** Each vocabulary's terms table and the dataset whose version it bumps: the dataset of its concepts (0009). */
const TERMS_DATASETS: [table: string, dataset: string][] = [
  ['disease_terms', 'diseases'],
  ['drug_terms', 'drugs'],
  ['lab_test_terms', 'labs'],
  ['condition_terms', 'conditions'],
];

/**
 * Type-ahead answers from the terms in memory, rebuilt when the dataset's version moves (docs/SEARCH.md,
 * "Type-ahead"). The writers change a concept's terms with the concept, which bumps it already; these triggers
 * bump it for a write to the terms alone too (a migration rebuilding them, psql), so no such write is ever
 * served stale. Statement-level, as 0009's: one row update per statement. The bulk downloads' ETags share the
 * versions (decision 0026): a write to the terms alone now renews them too, which costs a client a download it
 * did not need, never a stale one.
 */
export const m0012SuggestVersions: Migration = {
  name: '0012-suggest-versions',
  async up({ context }) {
    await context.sequelize.query(
      TERMS_DATASETS.map(
        ([table, dataset]) => `CREATE TRIGGER ${table}_dataset_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table}
          FOR EACH STATEMENT EXECUTE FUNCTION bump_dataset_version('${dataset}');`,
      ).join('\n'),
    );
  },
  async down({ context }) {
    await context.sequelize.query(TERMS_DATASETS.map(([table]) => `DROP TRIGGER ${table}_dataset_version ON ${table};`).join(' '));
  },
};
