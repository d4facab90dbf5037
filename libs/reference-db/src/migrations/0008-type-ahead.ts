import type { Migration } from '@libs/db';

/**
 * Type-ahead (docs/SEARCH.md, "Type-ahead") completes a partial word from
 * the terms that start with it: a B-tree in pattern order (text_pattern_ops,
 * which serves `LIKE 'me%'` and its order in any collation) on each terms table.
 */
export const m0008TypeAhead: Migration = {
  name: '0008-type-ahead',
  async up({ context }) {
    await context.sequelize.query(`
      CREATE INDEX disease_terms_prefix ON disease_terms (term text_pattern_ops);
      CREATE INDEX drug_terms_prefix ON drug_terms (term text_pattern_ops);
    `);
  },
  async down({ context }) {
    await context.sequelize.query('DROP INDEX disease_terms_prefix; DROP INDEX drug_terms_prefix;');
  },
};
