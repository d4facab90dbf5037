import { QueryTypes } from 'sequelize';
import type { Migration } from '@libs/db';
import { rebuildDrugTerms } from '../writers/drug-terms-writer';

/**
 * Drug search (docs/SEARCH.md, "Drug search"): the terms a drug is found by,
 * in a table of the same shape and with the same indexes as disease_terms
 * (the search's TermIndex), so that drugs are searched by the same candidate
 * statements, plans and bounds: the trigram GIN index with the smallest
 * pending list (0004), the B-tree on the term in pattern order (0008), the one on its length (0003),
 * and statistics short enough for pg_trgm's fixed estimate (0005). Dosages
 * gain the brand name their product is sold under. The drugs already stored
 * get their terms here; the writers keep them up to date.
 */
export const m0006DrugSearch: Migration = {
  name: '0006-drug-search',
  async up({ context }) {
    const { sequelize } = context;
    await sequelize.query(`
      ALTER TABLE dosages ADD COLUMN brand_name text;

      CREATE TABLE drug_terms (
        drug_pk bigint NOT NULL REFERENCES drugs (id) ON DELETE CASCADE,
        term    text NOT NULL,
        is_name boolean NOT NULL,
        PRIMARY KEY (drug_pk, term)
      );
      CREATE INDEX drug_terms_prefix ON drug_terms (term text_pattern_ops);
      CREATE INDEX drug_terms_trgm ON drug_terms USING gin (term gin_trgm_ops) WITH (gin_pending_list_limit = 64);
      CREATE INDEX drug_terms_length ON drug_terms (length(term));
      ALTER TABLE drug_terms ALTER COLUMN term SET STATISTICS 5;
    `);
    await sequelize.transaction(async (transaction) => {
      const drugs = await sequelize.query<{ id: string }>('SELECT id::text AS id FROM drugs', { type: QueryTypes.SELECT, transaction });
      await rebuildDrugTerms(sequelize, drugs.map((drug) => drug.id), transaction);
    });
    await sequelize.query('ANALYZE drug_terms');
  },
  async down({ context }) {
    await context.sequelize.query('DROP TABLE drug_terms; ALTER TABLE dosages DROP COLUMN brand_name;');
  },
};
