import type { Migration } from '@libs/db';

export const m0003KeyLimits: Migration = {
  name: '0003-key-limits',
  async up({ context }) {
    await context.sequelize.query(`
      -- Limits an admin set for one key; NULL means the role's default (configured per role).
      ALTER TABLE api_keys
        ADD COLUMN rate_limit        integer CHECK (rate_limit > 0),
        ADD COLUMN daily_quota       integer CHECK (daily_quota > 0),
        ADD COLUMN concurrency_limit integer CHECK (concurrency_limit > 0),
        -- The limiter's shared counts, written in batches by every gateway instance (auth/usage-counter.ts):
        -- the rate bucket's theoretical arrival time (full again at that instant) and the rate limit it was
        -- filled under (under another limit the bucket starts full), and the admitted requests of the UTC
        -- day quota_day.
        ADD COLUMN rate_tat           timestamptz,
        ADD COLUMN rate_tat_limit     integer,
        ADD COLUMN quota_day          date,
        ADD COLUMN quota_day_requests bigint NOT NULL DEFAULT 0;
    `);
  },
  async down({ context }) {
    await context.sequelize.query(`
      ALTER TABLE api_keys DROP COLUMN rate_limit, DROP COLUMN daily_quota, DROP COLUMN concurrency_limit,
        DROP COLUMN rate_tat, DROP COLUMN rate_tat_limit, DROP COLUMN quota_day, DROP COLUMN quota_day_requests;
    `);
  },
};
