import { QueryTypes } from 'sequelize';
import type { Migration } from '@libs/db';
import { rebuildConditionTerms, rebuildLabTestTerms } from '../writers/catalogue-terms-writer';

const termsTable = (table: string, owner: string, owners: string) => `
  CREATE TABLE ${table} (
    ${owner} bigint NOT NULL REFERENCES ${owners} (id) ON DELETE CASCADE,
    term    text NOT NULL,
    is_name boolean NOT NULL,
    PRIMARY KEY (${owner}, term)
  );
  CREATE INDEX ${table}_prefix ON ${table} (term text_pattern_ops);
  CREATE INDEX ${table}_trgm ON ${table} USING gin (term gin_trgm_ops) WITH (gin_pending_list_limit = 64);
  CREATE INDEX ${table}_length ON ${table} (length(term));
  ALTER TABLE ${table} ALTER COLUMN term SET STATISTICS 5;`;

/**
 * Type-ahead over lab tests and conditions (docs/SEARCH.md, "Type-ahead"):
 * their terms (names and the aliases their sources carry) in tables of the
 * shape and with the indexes of disease_terms and drug_terms (the search's
 * TermIndex: trigram GIN with the smallest pending list, the B-tree in pattern
 * order for prefixes, the one on the length, short statistics), so they are
 * searched by the same statements, plans and bounds. The rows already stored
 * get their terms here; the writers keep them up to date.
 */
export const m0010CatalogueTypeAhead: Migration = {
  name: '0010-catalogue-type-ahead',
  async up({ context }) {
    const { sequelize } = context;
    await sequelize.query(termsTable('lab_test_terms', 'lab_test_pk', 'lab_tests') + termsTable('condition_terms', 'condition_pk', 'conditions'));
    await sequelize.transaction(async (transaction) => {
      const ids = (table: string) => sequelize.query<{ id: string }>(`SELECT id::text AS id FROM ${table}`, { type: QueryTypes.SELECT, transaction });
      await rebuildLabTestTerms(sequelize, (await ids('lab_tests')).map((row) => row.id), transaction);
      await rebuildConditionTerms(sequelize, (await ids('conditions')).map((row) => row.id), transaction);
    });
    await sequelize.query('ANALYZE lab_test_terms; ANALYZE condition_terms');
  },
  async down({ context }) {
    await context.sequelize.query('DROP TABLE condition_terms; DROP TABLE lab_test_terms;');
  },
};
