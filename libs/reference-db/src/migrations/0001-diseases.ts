import type { Migration } from '@libs/db';

export const m0001Diseases: Migration = {
  name: '0001-diseases',
  async up({ context }) {
    await context.sequelize.query(`
      CREATE EXTENSION IF NOT EXISTS pg_trgm;

      CREATE TABLE diseases (
        id                  bigserial PRIMARY KEY,
        disease_id          text NOT NULL UNIQUE,
        name                text NOT NULL,
        alternative_ids     text[] NOT NULL DEFAULT '{}',
        definition          text NOT NULL DEFAULT '',
        parent_ids          text[] NOT NULL DEFAULT '{}',
        tree_numbers        text[] NOT NULL DEFAULT '{}',
        parent_tree_numbers text[] NOT NULL DEFAULT '{}',
        synonyms            text[] NOT NULL DEFAULT '{}',
        slim_mappings       text[] NOT NULL DEFAULT '{}',
        created_at          timestamptz NOT NULL DEFAULT now(),
        updated_at          timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX diseases_name_order ON diseases (lower(name), id);

      -- Every name and synonym of a disease, lower-cased: the search index.
      CREATE TABLE disease_terms (
        disease_pk bigint NOT NULL REFERENCES diseases (id) ON DELETE CASCADE,
        term       text NOT NULL,
        is_name    boolean NOT NULL,
        PRIMARY KEY (disease_pk, term)
      );
      CREATE INDEX disease_terms_exact ON disease_terms (term);
      CREATE INDEX disease_terms_trgm ON disease_terms USING gin (term gin_trgm_ops);

      -- Which bundled datasets were loaded, so a restart leaves them as they are.
      CREATE TABLE dataset_loads (
        dataset   text PRIMARY KEY,
        rows      integer NOT NULL,
        loaded_at timestamptz NOT NULL DEFAULT now()
      );
    `);
  },
  async down({ context }) {
    await context.sequelize.query('DROP TABLE dataset_loads; DROP TABLE disease_terms; DROP TABLE diseases;');
  },
};
