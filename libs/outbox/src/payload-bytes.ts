import type { Migration } from '@libs/db';

/**
 * The size of each outbox payload as JSON text, kept by PostgreSQL beside it, so a relay claims rows up to a byte
 * budget without rendering every candidate's payload again (docs/decisions/0024). Each service with an outbox adds
 * it in a migration of its own, under its own name; the table is small (published rows are pruned), so its rewrite
 * is quick.
 */
export const outboxPayloadBytes = (name: string): Migration => ({
  name,
  up: async ({ context }) =>
    void (await context.sequelize.query(
      'ALTER TABLE outbox ADD COLUMN payload_bytes integer GENERATED ALWAYS AS (octet_length(payload::text)) STORED',
    )),
  down: async ({ context }) => void (await context.sequelize.query('ALTER TABLE outbox DROP COLUMN payload_bytes')),
});
