import type { Migration } from '@libs/db';

/** Each bulk dataset and the tables its lines read (a drug line carries its ATC codes, a condition its indications). */
const DATASET_TABLES: [dataset: string, tables: string[]][] = [
  ['diseases', ['diseases']],
  ['drugs', ['drugs', 'drug_atc_codes']],
  ['labs', ['lab_tests']],
  ['categories', ['drug_categories']],
  ['conditions', ['conditions', 'indications']],
  ['premises', ['premises']],
];

/**
 * A version per dataset, the ETag of its bulk download (docs/decisions/0026): a statement-level trigger takes a
 * new number from one sequence on every write to the dataset's tables, whoever writes (the importer, the default
 * data, psql), so no writer can forget to. One row update per statement, not per row: an import's batches cost
 * a few hundred. Numbers come from a sequence, never reused, so a version seen once never names other content.
 */
export const m0009DatasetVersions: Migration = {
  name: '0009-dataset-versions',
  async up({ context }) {
    const triggers = DATASET_TABLES.flatMap(([dataset, tables]) =>
      tables.map(
        (table) => `CREATE TRIGGER ${table}_dataset_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table}
          FOR EACH STATEMENT EXECUTE FUNCTION bump_dataset_version('${dataset}');`,
      ),
    );
    await context.sequelize.query(`
      CREATE SEQUENCE dataset_version_numbers;
      CREATE TABLE dataset_versions (
        dataset text PRIMARY KEY,
        version bigint NOT NULL
      );
      INSERT INTO dataset_versions (dataset, version)
        SELECT dataset, nextval('dataset_version_numbers') FROM unnest(ARRAY[${DATASET_TABLES.map(([d]) => `'${d}'`).join(', ')}]) AS dataset;
      CREATE FUNCTION bump_dataset_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE dataset_versions SET version = nextval('dataset_version_numbers') WHERE dataset = TG_ARGV[0];
        RETURN NULL;
      END $$;
      ${triggers.join('\n      ')}
    `);
  },
  async down({ context }) {
    const drops = DATASET_TABLES.flatMap(([, tables]) => tables.map((table) => `DROP TRIGGER ${table}_dataset_version ON ${table};`));
    await context.sequelize.query(`${drops.join(' ')}
      DROP FUNCTION bump_dataset_version(); DROP TABLE dataset_versions; DROP SEQUENCE dataset_version_numbers;`);
  },
};
