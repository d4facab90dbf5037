/**
 * The table `idempotent` keeps its keys in, for a service's migration to create.
 * Idempotency-Key records, per acting user. The row is inserted in the same
 * transaction as the write it guards, so a concurrent duplicate waits on the
 * primary key and then sees the stored response.
 */
export const IDEMPOTENCY_KEYS_TABLE = `
  CREATE TABLE idempotency_keys (
    actor_id    text NOT NULL,
    key         text NOT NULL,
    fingerprint text NOT NULL,
    response    jsonb,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (actor_id, key)
  );`;
