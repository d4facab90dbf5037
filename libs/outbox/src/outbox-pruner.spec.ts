import { randomUUID } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { outboxOnlyMigrations as migrations } from './testing';
import { pruneOutbox } from './outbox-pruner';

describe('pruneOutbox (PostgreSQL)', () => {
  let db: ScratchDatabase;
  beforeAll(async () => {
    db = await createScratchDatabase('outbox', migrations);
  });
  afterAll(() => db?.drop());

  async function row(label: string, createdHoursAgo: number, publishedHoursAgo: number | null): Promise<void> {
    await db.sequelize.query(
      `INSERT INTO outbox (event_id, routing_key, payload, request_id, created_at, published_at)
       VALUES ($1, 'transaction.created', '{}'::jsonb, $2, now() - make_interval(hours => $3),
               CASE WHEN $4::int IS NULL THEN NULL ELSE now() - make_interval(hours => $4::int) END)`,
      { bind: [randomUUID(), label, createdHoursAgo, publishedHoursAgo] },
    );
  }

  it('deletes published rows older than the retention period and nothing else', async () => {
    await row('old-published', 300, 200);
    await row('recent-published', 300, 2);
    await row('old-unpublished', 300, null);
    expect(await pruneOutbox(db.sequelize, 168)).toBe(1);
    const left = await db.sequelize.query<{ request_id: string }>('SELECT request_id FROM outbox ORDER BY id', {
      type: QueryTypes.SELECT,
    });
    expect(left.map((r) => r.request_id)).toEqual(['recent-published', 'old-unpublished']);
    expect(await pruneOutbox(db.sequelize, 0)).toBe(1);
  });
});
