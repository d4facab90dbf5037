import type { Migration } from '@libs/db';

export const m0004AuditSubjects: Migration = {
  name: '0004-audit-subjects',
  async up({ context }) {
    await context.sequelize.query(`
      -- The event's subjects (schemaVersion 4 on): who may read the entity besides the roles
      -- that read every such record. Covered by the hash like every field of the event. NULL
      -- for events that had none (earlier versions), so their entries hash exactly as they did.
      ALTER TABLE audit_entries ADD COLUMN subjects text[];
    `);
  },
  async down({ context }) {
    await context.sequelize.query('ALTER TABLE audit_entries DROP COLUMN subjects;');
  },
};
