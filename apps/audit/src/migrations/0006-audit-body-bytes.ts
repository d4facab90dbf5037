import type { Migration } from '@libs/db';

export const m0006AuditBodyBytes: Migration = {
  name: '0006-audit-body-bytes',
  async up({ context }) {
    await context.sequelize.query(`
      -- The size of each entry's before and after as JSON text, kept by PostgreSQL, so a page
      -- and a /verify batch take entries up to a byte budget without rendering each candidate
      -- (docs/decisions/0024). Not part of the event: the hash does not cover it. Adding it
      -- rewrites the table once.
      ALTER TABLE audit_entries ADD COLUMN body_bytes integer
        GENERATED ALWAYS AS (octet_length(coalesce(before::text, '')) + octet_length(coalesce(after::text, ''))) STORED;
    `);
  },
  async down({ context }) {
    await context.sequelize.query('ALTER TABLE audit_entries DROP COLUMN body_bytes;');
  },
};
