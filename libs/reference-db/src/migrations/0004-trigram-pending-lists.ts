import type { Migration } from '@libs/db';

/** Every trigram GIN index of the reference data. */
const TRIGRAM_INDEXES = [
  'disease_terms_trgm',
  'lab_tests_search_trgm',
  'drugs_name_trgm',
  'drug_categories_name_trgm',
  'conditions_name_trgm',
  'premises_name_trgm',
];

/**
 * A GIN index buffers new entries in an unordered pending list (up to 4 MB by
 * default) until VACUUM or the next overflow merges them, and every search
 * reads that whole list: after an import, the pending disease terms made a
 * fuzzy search markedly slower at the database. Reference data is written in
 * bulk and rarely, so the list is capped at the smallest size PostgreSQL
 * allows (64 kB): writers merge as they go (an import takes longer, far less
 * than without the list at all), and a search reads a few dozen unmerged
 * terms at most.
 */
export const m0004TrigramPendingLists: Migration = {
  name: '0004-trigram-pending-lists',
  async up({ context }) {
    for (const index of TRIGRAM_INDEXES) {
      await context.sequelize.query(`ALTER INDEX ${index} SET (gin_pending_list_limit = 64)`);
      // The new limit only applies to later inserts: merge what is pending now.
      await context.sequelize.query(`SELECT gin_clean_pending_list('${index}'::regclass)`);
    }
  },
  async down({ context }) {
    for (const index of TRIGRAM_INDEXES) await context.sequelize.query(`ALTER INDEX ${index} RESET (gin_pending_list_limit)`);
  },
};
