/**
 * The outbox's tables in their current shape, for a new service's migration to create in one step (finance
 * reached the same shape through its migrations 0002, 0005 and 0006).
 *
 * outbox: events waiting for RabbitMQ. A row is written in the same database transaction as the change it
 * describes, and a relay publishes it later. locked_until is the relay's lease, so several instances can relay
 * at once; claim_id is the claim whose publish is in flight (NULL when none): a relay marks a row published only
 * under its own claim. trace_parent is the W3C traceparent of the call that wrote the event, sent on as a header.
 *
 * outbox_queue_watch: what the service knows about the audit queue its events go to, shared by its instances
 * and kept across restarts (audit-queue-watch.ts).
 */
export const OUTBOX_TABLES = `
  CREATE TABLE outbox (
    id           bigserial PRIMARY KEY,
    event_id     uuid NOT NULL UNIQUE,
    routing_key  text NOT NULL,
    payload      jsonb NOT NULL,
    request_id   text NOT NULL,
    trace_parent text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    attempts     integer NOT NULL DEFAULT 0,
    locked_until timestamptz,
    claim_id     uuid,
    last_error   text,
    published_at timestamptz
  );
  CREATE INDEX outbox_pending ON outbox (id) WHERE published_at IS NULL;

  CREATE TABLE outbox_queue_watch (
    queue      text PRIMARY KEY,
    drained_at timestamptz,
    recovering boolean NOT NULL DEFAULT false
  );`;
