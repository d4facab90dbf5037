import type { Migration } from '@libs/db';

/**
 * Dosages and food interactions as bulk datasets, and the tables each line reads: a dosage line carries its
 * drug's id and name, an interaction its drug, which it is joined to by DrugBank id or name.
 */
const DATASET_TABLES: [dataset: string, tables: string[]][] = [
  ['dosages', ['dosages', 'drugs']],
  ['food-interactions', ['food_interactions', 'drugs']],
];

const DATASET_LIST = DATASET_TABLES.map(([dataset]) => `'${dataset}'`).join(', ');

/** A trigger is named after its table and dataset: drugs has one for each of three datasets. */
const triggerName = (dataset: string, table: string) => `${table}_${dataset.replace(/-/g, '_')}_dataset_version`;

/**
 * Versions of the two datasets (the ETag of their bulk download, docs/decisions/0026), kept as migration 0009 keeps
 * the others': a row each in dataset_versions, and statement-level triggers on their tables that call its
 * bump_dataset_version.
 */
export const m0011BulkDosagesFood: Migration = {
  name: '0011-bulk-dosages-food',
  async up({ context }) {
    const triggers = DATASET_TABLES.flatMap(([dataset, tables]) =>
      tables.map(
        (table) => `CREATE TRIGGER ${triggerName(dataset, table)} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table}
          FOR EACH STATEMENT EXECUTE FUNCTION bump_dataset_version('${dataset}');`,
      ),
    );
    await context.sequelize.query(`
      INSERT INTO dataset_versions (dataset, version)
        SELECT dataset, nextval('dataset_version_numbers') FROM unnest(ARRAY[${DATASET_LIST}]) AS dataset;
      ${triggers.join('\n      ')}
    `);
  },
  async down({ context }) {
    const drops = DATASET_TABLES.flatMap(([dataset, tables]) => tables.map((table) => `DROP TRIGGER ${triggerName(dataset, table)} ON ${table};`));
    await context.sequelize.query(`${drops.join(' ')}
      DELETE FROM dataset_versions WHERE dataset IN (${DATASET_LIST});`);
  },
};
