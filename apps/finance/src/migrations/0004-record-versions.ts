import type { Migration } from '@libs/db';

export const m0004RecordVersions: Migration = {
  name: '0004-record-versions',
  async up({ context }) {
    await context.sequelize.query(`
      -- Updatable supporting records carry a version, like transactions, so a
      -- PATCH with If-Match can never overwrite a change it has not seen.
      ALTER TABLE accounts ADD COLUMN version integer NOT NULL DEFAULT 1;
      ALTER TABLE categories ADD COLUMN version integer NOT NULL DEFAULT 1;
      ALTER TABLE students ADD COLUMN version integer NOT NULL DEFAULT 1;
    `);
  },
  async down({ context }) {
    await context.sequelize.query(`
      ALTER TABLE accounts DROP COLUMN version;
      ALTER TABLE categories DROP COLUMN version;
      ALTER TABLE students DROP COLUMN version;
    `);
  },
};
