import type { Migration } from '@libs/db';

export const m0001Ledger: Migration = {
  name: '0001-ledger',
  async up({ context }) {
    await context.sequelize.query(`
      CREATE TABLE accounts (
        id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name       text NOT NULL,
        user_id    text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE categories (
        id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name       text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE registration_numbers (
        id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        number     text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE students (
        id                       uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        registration_number_id   uuid NOT NULL UNIQUE REFERENCES registration_numbers (id),
        user_id                  text UNIQUE,
        current_program_level_id text,
        created_at               timestamptz NOT NULL DEFAULT now(),
        updated_at               timestamptz NOT NULL DEFAULT now()
      );

      -- amount: integer minor units (cents); negative is money out.
      CREATE TABLE transactions (
        id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        student_id  uuid REFERENCES students (id),
        date        date NOT NULL,
        category_id uuid NOT NULL REFERENCES categories (id),
        payee       text NOT NULL,
        amount      bigint NOT NULL,
        notes       text NOT NULL DEFAULT '',
        account_id  uuid NOT NULL REFERENCES accounts (id),
        made_by     text NOT NULL,
        version     integer NOT NULL DEFAULT 1,
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX transactions_by_date ON transactions (date, id);
      CREATE INDEX transactions_by_account ON transactions (account_id, date, id);
      CREATE INDEX transactions_by_student ON transactions (student_id, date, id);
    `);
  },
  async down({ context }) {
    await context.sequelize.query(
      'DROP TABLE transactions; DROP TABLE students; DROP TABLE registration_numbers; DROP TABLE categories; DROP TABLE accounts;',
    );
  },
};
