import type { Migration } from '@libs/db';
import { IDEMPOTENCY_KEYS_TABLE } from '@libs/idempotency';

export const m0001Webhooks: Migration = {
  name: '0001-webhooks',
  async up({ context }) {
    await context.sequelize.query(`
      -- What this service knows of each user who owns endpoints: the role of their latest call through the
      -- gateway, which decides what their endpoints receive.
      CREATE TABLE recipients (
        user_id      text PRIMARY KEY,
        role         text NOT NULL,
        role_seen_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE endpoints (
        id              uuid PRIMARY KEY,
        owner_id        text NOT NULL REFERENCES recipients (user_id),
        url             text NOT NULL,
        description     text,
        -- Catalogue names, or '{*}' for every type.
        event_types     text[] NOT NULL,
        enabled         boolean NOT NULL DEFAULT true,
        -- Why the service disabled it; NULL when enabled or disabled by its owner.
        disabled_reason text CHECK (disabled_reason IN ('gone', 'failing')),
        -- The first failed attempt since the last delivered one: five days of failures disable the endpoint.
        failing_since   timestamptz,
        version         integer NOT NULL DEFAULT 1,
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX endpoints_owner ON endpoints (owner_id, created_at, id);

      -- The secrets an endpoint signs with: the current one (expires_at NULL) and, for 24 hours after a rotation,
      -- the previous one. Kept as given: an HMAC needs the secret itself.
      CREATE TABLE endpoint_secrets (
        id          bigserial PRIMARY KEY,
        endpoint_id uuid NOT NULL REFERENCES endpoints (id) ON DELETE CASCADE,
        secret      text NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now(),
        expires_at  timestamptz
      );
      CREATE INDEX endpoint_secrets_endpoint ON endpoint_secrets (endpoint_id);

      -- Each event once (a redelivered message finds its id here), kept for the retention. object is the thin
      -- payload's data.object; subjects NULL: the event carried none (an older schema version).
      CREATE TABLE events (
        event_id    uuid PRIMARY KEY,
        type        text NOT NULL,
        source      text NOT NULL,
        occurred_at timestamptz NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        subjects    text[],
        object      jsonb NOT NULL
      );
      CREATE INDEX events_received ON events (received_at);
      CREATE INDEX events_occurred ON events (occurred_at);

      -- One event to one endpoint. A pending row is due at next_attempt_at; a worker claims it by setting a lease
      -- (lease_owner, lease_until), which another instance may take over once it has run out.
      CREATE TABLE deliveries (
        id                uuid PRIMARY KEY,
        endpoint_id       uuid NOT NULL REFERENCES endpoints (id) ON DELETE CASCADE,
        event_id          uuid NOT NULL REFERENCES events (event_id) ON DELETE CASCADE,
        status            text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        -- Attempts made since the delivery was (re)queued: the position in the retry schedule.
        schedule_position integer NOT NULL DEFAULT 0,
        next_attempt_at   timestamptz,
        lease_owner       uuid,
        lease_until       timestamptz,
        created_at        timestamptz NOT NULL DEFAULT now(),
        UNIQUE (endpoint_id, event_id)
      );
      CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX deliveries_leased ON deliveries (endpoint_id) WHERE lease_until IS NOT NULL;
      CREATE INDEX deliveries_endpoint ON deliveries (endpoint_id, created_at DESC, id DESC);
      CREATE INDEX deliveries_event ON deliveries (event_id);

      CREATE TABLE attempts (
        id               bigserial PRIMARY KEY,
        delivery_id      uuid NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
        started_at       timestamptz NOT NULL,
        duration_ms      integer NOT NULL,
        -- The answer's HTTP status, or NULL with error (a failure class) and error_detail.
        status           integer,
        error            text,
        error_detail     text,
        response_excerpt text
      );
      CREATE INDEX attempts_delivery ON attempts (delivery_id, id);

      ${IDEMPOTENCY_KEYS_TABLE}
    `);
  },
  async down({ context }) {
    await context.sequelize.query(
      'DROP TABLE idempotency_keys, attempts, deliveries, events, endpoint_secrets, endpoints, recipients;',
    );
  },
};
