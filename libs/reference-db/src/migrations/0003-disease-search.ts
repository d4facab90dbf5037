import type { Migration } from '@libs/db';

/**
 * The wide second pass of fuzzy disease search looks for whole terms a few
 * typos from the query: each typo changes the length by at most one, so a
 * length window ANDed with the trigram index keeps the pass from rechecking
 * thousands of long terms that merely share a few trigrams.
 */
export const m0003DiseaseSearch: Migration = {
  name: '0003-disease-search',
  async up({ context }) {
    await context.sequelize.query('CREATE INDEX disease_terms_length ON disease_terms (length(term))');
  },
  async down({ context }) {
    await context.sequelize.query('DROP INDEX disease_terms_length');
  },
};
