import type { Migration } from '@libs/db';

export const m0002Outbox: Migration = {
  name: '0002-outbox',
  async up({ context }) {
    await context.sequelize.query(`
      -- Audit events waiting for RabbitMQ. A row is written in the same database
      -- transaction as the change it describes, and a relay publishes it later.
      -- locked_until is the relay's lease: several finance instances can relay at once.
      CREATE TABLE outbox (
        id           bigserial PRIMARY KEY,
        event_id     uuid NOT NULL UNIQUE,
        routing_key  text NOT NULL,
        payload      jsonb NOT NULL,
        request_id   text NOT NULL,
        created_at   timestamptz NOT NULL DEFAULT now(),
        attempts     integer NOT NULL DEFAULT 0,
        locked_until timestamptz,
        last_error   text,
        published_at timestamptz
      );
      CREATE INDEX outbox_pending ON outbox (id) WHERE published_at IS NULL;
    `);
  },
  async down({ context }) {
    await context.sequelize.query('DROP TABLE outbox;');
  },
};
