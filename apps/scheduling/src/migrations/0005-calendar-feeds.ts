import type { Migration } from '@libs/db';

/**
 * Calendar feeds (docs/SCHEDULING.md, "Calendar feeds"): a secret URL per subscription, kept only as the SHA-256 of
 * its token (256 random bits: no salt or slow hash is needed against guessing). A revoked feed keeps its row, so
 * its hash can never be issued again unnoticed; the unique index finds a feed by its hash, the partial one lists an owner's live feeds.
 */
export const m0005CalendarFeeds: Migration = {
  name: '0005-calendar-feeds',
  async up({ context }) {
    await context.sequelize.query(`
      CREATE TABLE calendar_feeds (
        id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        owner_id    text NOT NULL,
        owner_role  text NOT NULL,
        resource_id uuid REFERENCES resources (id),
        token_hash  bytea NOT NULL UNIQUE CHECK (octet_length(token_hash) = 32),
        created_at  timestamptz NOT NULL DEFAULT now(),
        revoked_at  timestamptz
      );
      CREATE INDEX calendar_feeds_live_by_owner ON calendar_feeds (owner_id, created_at) WHERE revoked_at IS NULL;
    `);
  },
  async down({ context }) {
    await context.sequelize.query('DROP TABLE calendar_feeds');
  },
};
