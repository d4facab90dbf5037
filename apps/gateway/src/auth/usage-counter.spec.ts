import { QueryTypes } from 'sequelize';
import { createLogger } from '@libs/logging';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { migrations } from '../migrations';
import { issueKey } from './key-store';
import { UsageCounter } from './usage-counter';

describe('key usage counted in memory, written in batches', () => {
  let db: ScratchDatabase;
  let counter: UsageCounter;
  let keyId: string;
  beforeAll(async () => {
    db = await createScratchDatabase('gateway', migrations);
    const [user] = await db.sequelize.query<{ id: string }>(
      "INSERT INTO users (email, role) VALUES ('u@example.org', 'reader') RETURNING id",
      { type: QueryTypes.SELECT },
    );
    keyId = (await issueKey(db.sequelize, user.id, 'k')).id;
    // Flushed by hand only, so that the test decides when writes happen.
    counter = new UsageCounter(db.sequelize, 3_600_000, createLogger('gateway', 'silent'));
  }, 60_000);
  afterAll(async () => {
    await counter?.stop();
    await db?.drop();
  }, 30_000);

  const stored = async () =>
    (
      await db.sequelize.query<{ request_count: string; last_used_at: Date | null }>(
        'SELECT request_count, last_used_at FROM api_keys WHERE id = $1',
        { bind: [keyId], type: QueryTypes.SELECT },
      )
    )[0];

  it('keeps the counts of a failed write and adds them to the next one', async () => {
    const lastUse = new Date('2026-01-02T03:04:05Z');
    counter.count(keyId, new Date('2026-01-01T00:00:00Z'));
    counter.count(keyId, lastUse);
    await db.sequelize.query('ALTER TABLE api_keys RENAME TO api_keys_away');
    await counter.flush(); // fails: the table is gone for a moment
    await db.sequelize.query('ALTER TABLE api_keys_away RENAME TO api_keys');
    expect((await stored()).request_count).toBe('0');

    counter.count(keyId, new Date('2026-01-01T12:00:00Z'));
    await counter.flush();
    expect(await stored()).toEqual({ request_count: '3', last_used_at: lastUse });
  });
});
