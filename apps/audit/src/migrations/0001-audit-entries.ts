import type { Migration } from '@libs/db';

export const m0001AuditEntries: Migration = {
  name: '0001-audit-entries',
  async up({ context }) {
    await context.sequelize.query(`
      -- One row per event, in the order stored; each row's hash covers the
      -- previous row's hash, so any edit or deletion breaks the chain after it.
      CREATE TABLE audit_entries (
        sequence    bigserial PRIMARY KEY,
        event_id    uuid NOT NULL UNIQUE,
        occurred_at timestamptz NOT NULL,
        action      text NOT NULL,
        entity_type text NOT NULL,
        entity_ids  text[] NOT NULL,
        actor_id    text NOT NULL,
        actor_role  text NOT NULL,
        request_id  text NOT NULL,
        before      jsonb,
        after       jsonb,
        prev_hash   text NOT NULL,
        hash        text NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX audit_entries_entity ON audit_entries (entity_type, sequence);
      CREATE INDEX audit_entries_entity_ids ON audit_entries USING gin (entity_ids);
      CREATE INDEX audit_entries_action ON audit_entries (action, sequence);
      CREATE INDEX audit_entries_actor ON audit_entries (actor_id, sequence);
      CREATE INDEX audit_entries_occurred ON audit_entries (occurred_at, sequence);
    `);
  },
  async down({ context }) {
    await context.sequelize.query('DROP TABLE audit_entries;');
  },
};
