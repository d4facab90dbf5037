import type { Migration } from '@libs/db';
import { outboxPayloadBytes } from './payload-bytes';
import { OUTBOX_TABLES } from './tables';

/** The outbox's tables as the only migrations of a scratch database, for this library's own tests. */
export const outboxOnlyMigrations: Migration[] = [
  {
    name: 'outbox',
    up: async ({ context }) => void (await context.sequelize.query(OUTBOX_TABLES)),
    down: async ({ context }) => void (await context.sequelize.query('DROP TABLE outbox_queue_watch; DROP TABLE outbox;')),
  },
  outboxPayloadBytes('outbox-payload-bytes'),
];
