import type { Migration } from '@libs/db';

export const m0003PaymentsAndStatements: Migration = {
  name: '0003-payments-and-statements',
  async up({ context }) {
    await context.sequelize.query(`
      -- A proof of payment submitted by (or for) a student. Status moves only
      -- pending -> processed -> resolved; outcome is set when processed.
      CREATE TABLE payments (
        id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        student_id   uuid NOT NULL REFERENCES students (id),
        user_id      text NOT NULL,
        amount       bigint NOT NULL CHECK (amount > 0),
        description  text NOT NULL DEFAULT '',
        date         date NOT NULL,
        status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processed', 'resolved')),
        outcome      text CHECK (outcome IN ('accepted', 'rejected')),
        note         text NOT NULL DEFAULT '',
        processed_by text,
        processed_at timestamptz,
        resolved_by  text,
        resolved_at  timestamptz,
        created_at   timestamptz NOT NULL DEFAULT now(),
        updated_at   timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX payments_by_created ON payments (created_at, id);
      CREATE INDEX payments_by_student ON payments (student_id, created_at, id);

      -- A student's financial statement; the running balance is computed on read.
      -- payment_id links the credit written when a payment is accepted (at most one).
      CREATE TABLE financial_statements (
        id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        student_id  uuid NOT NULL REFERENCES students (id),
        semester_id text,
        date        date NOT NULL,
        description text NOT NULL,
        debit       bigint NOT NULL DEFAULT 0 CHECK (debit >= 0),
        credit      bigint NOT NULL DEFAULT 0 CHECK (credit >= 0),
        payment_id  uuid UNIQUE REFERENCES payments (id),
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX statements_by_student ON financial_statements (student_id, date, created_at, id);

      -- Idempotency-Key records, per acting user. The row is inserted in the
      -- same transaction as the write it guards, so a concurrent duplicate waits
      -- on the primary key and then sees the stored response.
      CREATE TABLE idempotency_keys (
        actor_id    text NOT NULL,
        key         text NOT NULL,
        fingerprint text NOT NULL,
        response    jsonb,
        created_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (actor_id, key)
      );
    `);
  },
  async down({ context }) {
    await context.sequelize.query('DROP TABLE idempotency_keys; DROP TABLE financial_statements; DROP TABLE payments;');
  },
};
