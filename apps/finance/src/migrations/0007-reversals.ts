import type { Migration } from '@libs/db';

export const m0007Reversals: Migration = {
  name: '0007-reversals',
  async up({ context }) {
    await context.sequelize.query(`
      -- A correction is a linked opposite row, never a rewrite (docs/decisions/0016).
      -- UNIQUE: a row is reversed at most once, even by two concurrent requests.
      ALTER TABLE transactions ADD COLUMN reversal_of uuid UNIQUE REFERENCES transactions (id);

      -- An accepted payment taken back by a bursar; its credit line is offset
      -- by a debit line that names it.
      ALTER TABLE payments DROP CONSTRAINT payments_status_check;
      ALTER TABLE payments ADD CONSTRAINT payments_status_check
        CHECK (status IN ('pending', 'processed', 'resolved', 'reversed'));
      ALTER TABLE payments ADD COLUMN reversed_by text, ADD COLUMN reversed_at timestamptz,
        ADD COLUMN reversal_reason text NOT NULL DEFAULT '';
      ALTER TABLE financial_statements ADD COLUMN reversal_of uuid UNIQUE REFERENCES financial_statements (id);
    `);
  },
  async down({ context }) {
    await context.sequelize.query(`
      ALTER TABLE financial_statements DROP COLUMN reversal_of;
      ALTER TABLE payments DROP COLUMN reversed_by, DROP COLUMN reversed_at, DROP COLUMN reversal_reason;
      ALTER TABLE payments DROP CONSTRAINT payments_status_check;
      ALTER TABLE payments ADD CONSTRAINT payments_status_check CHECK (status IN ('pending', 'processed', 'resolved'));
      ALTER TABLE transactions DROP COLUMN reversal_of;
    `);
  },
};
