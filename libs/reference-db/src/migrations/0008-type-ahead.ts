import type { Migration } from '@libs/db';

/**
 * Type-ahead (docs/SEARCH.md, "Type-ahead") completes a partial word from
 * the terms that start with it: a B-tree in pattern order (text_pattern_ops,
 * which serves `LIKE 'me%'` and its order in any collation). It serves an
 * exact term (`=`) as well, so it replaces the B-tree in the collation's
 * order: one index on the term to write and keep in memory, as drug_terms has
 * from the start (0006).
 */
export const m0008TypeAhead: Migration = {
  name: '0008-type-ahead',
  async up({ context }) {
    await context.sequelize.query(`
      CREATE INDEX disease_terms_prefix ON disease_terms (term text_pattern_ops);
      DROP INDEX disease_terms_exact;
    `);
  },
  async down({ context }) {
    await context.sequelize.query('CREATE INDEX disease_terms_exact ON disease_terms (term); DROP INDEX disease_terms_prefix;');
  },
};
