import type { Migration } from '@libs/db';

export const m0002SessionsAndLoginThrottle: Migration = {
  name: '0002-sessions-and-login-throttle',
  async up({ context }) {
    await context.sequelize.query(`
      -- Dashboard sign-ins. Like keys, a session token is stored only as a SHA-256.
      CREATE TABLE sessions (
        id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        token_hash  text NOT NULL UNIQUE,
        created_at  timestamptz NOT NULL DEFAULT now(),
        expires_at  timestamptz NOT NULL
      );
      CREATE INDEX sessions_by_expiry ON sessions (expires_at);

      -- Login attempts per subject ('account:<email>' or 'ip:<address>') in the
      -- current window. Kept in the database so that every gateway instance
      -- sees the same count.
      CREATE TABLE login_throttle (
        subject           text PRIMARY KEY,
        attempts          integer NOT NULL,
        window_started_at timestamptz NOT NULL
      );
    `);
  },
  async down({ context }) {
    await context.sequelize.query('DROP TABLE login_throttle; DROP TABLE sessions;');
  },
};
