import type { Migration } from '@libs/db';

/**
 * Everything in the reference catalogue besides diseases. Every table is keyed
 * by the id its source gives a record (`source_id`, or the ATC code), so an
 * import upserts instead of duplicating. Names that clients search by
 * substring carry a trigram GIN index, which serves ILIKE '%term%'.
 */
export const m0002Catalogue: Migration = {
  name: '0002-catalogue',
  async up({ context }) {
    await context.sequelize.query(`
      CREATE TABLE lab_tests (
        id                bigserial PRIMARY KEY,
        source_id         text NOT NULL UNIQUE,
        loinc             text,
        name              text NOT NULL,
        category_name     text NOT NULL DEFAULT '',
        sub_category_name text NOT NULL DEFAULT '',
        normal_range      text NOT NULL DEFAULT '',
        units             text NOT NULL DEFAULT '',
        description       text NOT NULL DEFAULT '',
        methodology       text NOT NULL DEFAULT '',
        duration          text NOT NULL DEFAULT '',
        test_results      jsonb NOT NULL DEFAULT '[]',
        -- One searchable text per test; the newline keeps a term from matching across two fields
        -- (query terms never hold control characters).
        search_text       text GENERATED ALWAYS AS (name || E'\\n' || category_name || E'\\n' || sub_category_name) STORED,
        created_at        timestamptz NOT NULL DEFAULT now(),
        updated_at        timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX lab_tests_name_order ON lab_tests (lower(name), id);
      CREATE INDEX lab_tests_search_trgm ON lab_tests USING gin (search_text gin_trgm_ops);

      CREATE TABLE drugs (
        id          bigserial PRIMARY KEY,
        source_id   text NOT NULL UNIQUE,
        name        text NOT NULL,
        drugbank_id text,
        description text NOT NULL DEFAULT '',
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX drugs_name_order ON drugs (lower(name), id);
      CREATE INDEX drugs_name_trgm ON drugs USING gin (name gin_trgm_ops);
      CREATE INDEX drugs_drugbank_id ON drugs (drugbank_id);

      -- A drug's ATC codes; text_pattern_ops serves the prefix match from a category to its drugs.
      CREATE TABLE drug_atc_codes (
        drug_pk  bigint NOT NULL REFERENCES drugs (id) ON DELETE CASCADE,
        atc_code text NOT NULL,
        PRIMARY KEY (drug_pk, atc_code)
      );
      CREATE INDEX drug_atc_codes_prefix ON drug_atc_codes (atc_code text_pattern_ops);

      CREATE TABLE dosages (
        id               bigserial PRIMARY KEY,
        source_id        text NOT NULL UNIQUE,
        drug_pk          bigint NOT NULL REFERENCES drugs (id) ON DELETE CASCADE,
        form             text NOT NULL,
        physical_form    text NOT NULL DEFAULT '',
        admin_method     text NOT NULL DEFAULT '',
        strength         text NOT NULL DEFAULT '',
        marketing_status text,
        created_at       timestamptz NOT NULL DEFAULT now(),
        updated_at       timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX dosages_by_drug ON dosages (drug_pk, id);

      -- WHO ATC: level 1 (anatomical main group) to 5 (chemical substance); the code is the source id.
      CREATE TABLE drug_categories (
        code        text PRIMARY KEY,
        name        text NOT NULL,
        level       smallint NOT NULL CHECK (level BETWEEN 1 AND 5),
        parent_code text,
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX drug_categories_name_trgm ON drug_categories USING gin (name gin_trgm_ops);

      CREATE TABLE conditions (
        id          bigserial PRIMARY KEY,
        source_id   text NOT NULL UNIQUE,
        name        text NOT NULL,
        doid        text,
        description text NOT NULL DEFAULT '',
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX conditions_name_order ON conditions (lower(name), id);
      CREATE INDEX conditions_name_trgm ON conditions USING gin (name gin_trgm_ops);

      -- Which drug treats a condition. The drug is named, not referenced: indications and drugs come
      -- from different sources, and are joined by DrugBank id or name when read.
      CREATE TABLE indications (
        condition_pk bigint NOT NULL REFERENCES conditions (id) ON DELETE CASCADE,
        drug_key     text NOT NULL,
        drug_name    text NOT NULL,
        drugbank_id  text,
        type         text NOT NULL CHECK (type IN ('treats', 'symptomatic')),
        PRIMARY KEY (condition_pk, drug_key)
      );

      CREATE TABLE premises (
        id            bigserial PRIMARY KEY,
        source_id     text NOT NULL UNIQUE,
        name          text NOT NULL,
        type          text NOT NULL,
        address       jsonb NOT NULL,
        phone         text,
        opening_hours text,
        latitude      double precision,
        longitude     double precision,
        services      text[] NOT NULL DEFAULT '{}',
        sample_data   boolean NOT NULL DEFAULT false,
        created_at    timestamptz NOT NULL DEFAULT now(),
        updated_at    timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX premises_name_order ON premises (lower(name), id);
      CREATE INDEX premises_name_trgm ON premises USING gin (name gin_trgm_ops);

      -- Joined to drugs by DrugBank id or name when read, like indications.
      CREATE TABLE food_interactions (
        id          bigserial PRIMARY KEY,
        source_id   text NOT NULL UNIQUE,
        drug_name   text NOT NULL,
        drugbank_id text,
        food        text NOT NULL DEFAULT '',
        severity    text,
        effect      text NOT NULL DEFAULT '',
        advice      text NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX food_interactions_drugbank_id ON food_interactions (drugbank_id);
      CREATE INDEX food_interactions_drug_name ON food_interactions (lower(drug_name));
    `);
  },
  async down({ context }) {
    await context.sequelize.query(`
      DROP TABLE food_interactions; DROP TABLE premises; DROP TABLE indications; DROP TABLE conditions;
      DROP TABLE drug_categories; DROP TABLE dosages; DROP TABLE drug_atc_codes; DROP TABLE drugs; DROP TABLE lab_tests;
    `);
  },
};
