import type { Migration } from '@libs/db';

export const m0001UsersAndKeys: Migration = {
  name: '0001-users-and-keys',
  async up({ context }) {
    await context.sequelize.query(`
      CREATE TABLE users (
        id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email         text NOT NULL UNIQUE,
        password_hash text,
        role          text NOT NULL CHECK (role IN ('reader', 'student', 'bursar', 'admin')),
        created_at    timestamptz NOT NULL DEFAULT now(),
        updated_at    timestamptz NOT NULL DEFAULT now()
      );

      -- Keys are stored only as a SHA-256 of the whole key: they carry 192
      -- random bits, so a slow password hash would add cost and no safety.
      CREATE TABLE api_keys (
        id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name          text NOT NULL DEFAULT '',
        prefix        text NOT NULL,
        key_hash      text NOT NULL UNIQUE,
        created_at    timestamptz NOT NULL DEFAULT now(),
        last_used_at  timestamptz,
        request_count bigint NOT NULL DEFAULT 0,
        revoked_at    timestamptz
      );
      CREATE INDEX api_keys_by_user ON api_keys (user_id, created_at);
    `);
  },
  async down({ context }) {
    await context.sequelize.query('DROP TABLE api_keys; DROP TABLE users;');
  },
};
