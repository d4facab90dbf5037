import type { Migration } from '@libs/db';

export const m0003AuditSchemaVersion: Migration = {
  name: '0003-audit-schema-version',
  async up({ context }) {
    await context.sequelize.query(`
      -- The event's schemaVersion: the shape of before/after. Covered by the hash
      -- like every field of the event. NULL for events that had none (version 1),
      -- so the entries stored before this column hash exactly as they did.
      ALTER TABLE audit_entries ADD COLUMN schema_version smallint;
    `);
  },
  async down({ context }) {
    await context.sequelize.query('ALTER TABLE audit_entries DROP COLUMN schema_version;');
  },
};
