import type { Migration } from '@libs/db';

/**
 * Signed checkpoints of the chain's head (docs/AUDIT.md, "Checkpoints"): at most one per sequence, whichever
 * instance signed it first. They hold no secret: the signature proves them, and the key is in configuration only.
 */
export const m0005AuditCheckpoints: Migration = {
  name: '0005-audit-checkpoints',
  async up({ context }) {
    await context.sequelize.query(`
      CREATE TABLE audit_checkpoints (
        sequence  bigint PRIMARY KEY,
        hash      text NOT NULL,
        signed_at timestamptz NOT NULL,
        key_id    text NOT NULL,
        signature text NOT NULL
      )`);
  },
  async down({ context }) {
    await context.sequelize.query('DROP TABLE audit_checkpoints');
  },
};
