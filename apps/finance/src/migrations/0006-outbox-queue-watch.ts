import type { Migration } from '@libs/db';

export const m0006OutboxQueueWatch: Migration = {
  name: '0006-outbox-queue-watch',
  async up({ context }) {
    await context.sequelize.query(`
      -- The claim whose publish is in flight (NULL when none): a relay marks a row
      -- published only under its own claim, so a row put back meanwhile (see below)
      -- is not marked by a publish that may have gone into the deleted queue.
      ALTER TABLE outbox ADD COLUMN claim_id uuid;

      -- What finance knows about the audit queue, shared by every finance instance and
      -- kept across restarts (outbox/audit-queue-watch.ts). A row exists once the
      -- queue's deletion witness was armed. drained_at: the last time the queue was
      -- seen with no message waiting; every event published before it had left the
      -- queue. recovering: a deletion was seen and its events are not yet put back.
      CREATE TABLE outbox_queue_watch (
        queue      text PRIMARY KEY,
        drained_at timestamptz,
        recovering boolean NOT NULL DEFAULT false
      );
    `);
  },
  async down({ context }) {
    await context.sequelize.query('DROP TABLE outbox_queue_watch; ALTER TABLE outbox DROP COLUMN claim_id;');
  },
};
