import type { Migration } from '@libs/db';

export const m0002AuditTraceId: Migration = {
  name: '0002-audit-trace-id',
  async up({ context }) {
    await context.sequelize.query(`
      -- The W3C trace id of the request that caused the event, so an entry leads
      -- to the request's trace and logs. Not covered by the hash: it describes
      -- how the event travelled, not what happened.
      ALTER TABLE audit_entries ADD COLUMN trace_id text;
    `);
  },
  async down({ context }) {
    await context.sequelize.query('ALTER TABLE audit_entries DROP COLUMN trace_id;');
  },
};
