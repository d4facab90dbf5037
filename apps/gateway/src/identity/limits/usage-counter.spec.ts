import { GATEWAY_ACTOR } from '@libs/grpc';
import { QueryTypes } from 'sequelize';
import { createLogger } from '@libs/logging';
import { Client } from 'pg';
import { createScratchDatabase, waitFor, type ScratchDatabase } from '@libs/testing';
import { migrations } from '../../migrations';
import { issueKey } from '../key-store';
import type { SharedUsage } from './rate-limiter';
import { UsageCounter, type SharedCounts } from './usage-counter';
import { utcDay } from './utc-day';

/** What the rate limiter would be told after each write. */
class LearntCounts implements SharedCounts {
  readonly learnt = new Map<string, SharedUsage & { pending: number }>();
  /** How many writes told it anything: one learn per key per write. */
  writes = 0;
  constructor(private readonly watched: string[] = []) {}
  keysToRead(): string[] {
    return this.watched;
  }
  learn(keyId: string, shared: SharedUsage, pending: number): void {
    this.writes += 1;
    this.learnt.set(keyId, { ...shared, pending });
  }
}

describe('key usage counted in memory, written in batches', () => {
  let db: ScratchDatabase;
  let userId: string;
  const logger = createLogger('gateway', 'silent');
  const counters: UsageCounter[] = [];
  /** Flushed by hand only, so that the test decides when writes happen. */
  const newCounter = (shared: SharedCounts) => {
    const counter = new UsageCounter(db.sequelize, 3_600_000, shared, logger);
    counters.push(counter);
    return counter;
  };
  const newKey = async () =>
    (await db.sequelize.transaction((transaction) => issueKey(db.sequelize, { requestId: 'spec', actor: GATEWAY_ACTOR }, userId, 'k', transaction))).id;

  beforeAll(async () => {
    db = await createScratchDatabase('gateway', migrations);
    [{ id: userId }] = await db.sequelize.query<{ id: string }>(
      "INSERT INTO users (email, role) VALUES ('u@example.org', 'reader') RETURNING id",
      { type: QueryTypes.SELECT },
    );
  }, 60_000);
  afterAll(async () => {
    await Promise.all(counters.map((counter) => counter.stop()));
    await db?.drop();
  }, 30_000);

  const stored = async (keyId: string) =>
    (
      await db.sequelize.query<{ request_count: string; last_used_at: Date | null }>(
        'SELECT request_count, last_used_at FROM api_keys WHERE id = $1',
        { bind: [keyId], type: QueryTypes.SELECT },
      )
    )[0];

  it('keeps the counts of a failed write and adds them to the next one', async () => {
    const keyId = await newKey();
    const counter = newCounter(new LearntCounts());
    const lastUse = new Date('2026-01-02T03:04:05Z');
    counter.count(keyId, 60, new Date('2026-01-01T00:00:00Z'));
    counter.count(keyId, 60, lastUse);
    await db.sequelize.query('ALTER TABLE api_keys RENAME TO api_keys_away');
    await counter.flush(); // fails: the table is gone for a moment
    await db.sequelize.query('ALTER TABLE api_keys_away RENAME TO api_keys');
    expect((await stored(keyId)).request_count).toBe('0');

    counter.count(keyId, 60, new Date('2026-01-01T12:00:00Z'));
    await counter.flush();
    expect(await stored(keyId)).toEqual({ request_count: '3', last_used_at: lastUse });
  });

  it('adds up what several instances admitted, and tells each the shared counts', async () => {
    const keyId = await newKey();
    const first = new LearntCounts();
    const second = new LearntCounts([keyId]);
    const [a, b] = [newCounter(first), newCounter(second)];
    const start = Date.now();
    for (let i = 0; i < 3; i += 1) a.count(keyId, 60, new Date(start));
    for (let i = 0; i < 2; i += 1) b.count(keyId, 60, new Date(start));
    await a.flush();
    expect(first.learnt.get(keyId)).toEqual({ tatMs: start + 3_000, tatLimit: 60, day: utcDay(Date.now()), dayRequests: 3, pending: 0 });

    await b.flush();
    // Each request moves the bucket's arrival time on by its interval, from wherever it stands.
    expect(second.learnt.get(keyId)).toEqual({ tatMs: start + 5_000, tatLimit: 60, day: utcDay(Date.now()), dayRequests: 5, pending: 0 });
    expect((await stored(keyId)).request_count).toBe('5');

    // An instance that admitted nothing since still reads the counts of the keys it watches.
    second.learnt.clear();
    await b.flush();
    expect(second.learnt.get(keyId)).toMatchObject({ dayRequests: 5 });

    // Under another rate limit (an admin changed it) the bucket starts full: only the new request is in it.
    const later = Date.now();
    a.count(keyId, 120, new Date(later));
    await a.flush();
    expect(first.learnt.get(keyId)).toMatchObject({ tatMs: later + 500, tatLimit: 120, dayRequests: 6 });
  });

  it('starts the day count afresh on a new day, and never moves the day back', async () => {
    const keyId = await newKey();
    await db.sequelize.query("UPDATE api_keys SET quota_day = '2000-01-01', quota_day_requests = 40 WHERE id = $1", { bind: [keyId] });
    const shared = new LearntCounts();
    const counter = newCounter(shared);
    counter.count(keyId, 60);
    await counter.flush();
    expect(shared.learnt.get(keyId)).toMatchObject({ day: utcDay(Date.now()), dayRequests: 1 });

    // A day later than the instance's own (its clock is behind): its requests go to the newer day.
    await db.sequelize.query("UPDATE api_keys SET quota_day = '2999-01-01', quota_day_requests = 7 WHERE id = $1", { bind: [keyId] });
    counter.count(keyId, 60);
    await counter.flush();
    expect(shared.learnt.get(keyId)).toMatchObject({ day: '2999-01-01', dayRequests: 8 });
  });

  it('queues no write behind a slow one: the ticks meanwhile add up to one further write', async () => {
    const keyId = await newKey();
    // It watches the key, as an instance does a key in use: were a tick to queue a write, that write would run.
    const shared = new LearntCounts([keyId]);
    // Only the interval is faked, so that the test fires the ticks; the database client's timers stay real.
    jest.useFakeTimers({
      doNotFake: ['Date', 'hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setTimeout', 'clearTimeout'],
    });
    const intervalMs = 1_000;
    const counter = new UsageCounter(db.sequelize, intervalMs, shared, logger);
    counters.push(counter);

    // A lock taken from outside holds the first write in the database, as a partition holds it in the pool.
    const locker = new Client({ connectionString: db.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE api_keys IN ACCESS EXCLUSIVE MODE');
      counter.count(keyId, 60);
      jest.advanceTimersByTime(intervalMs);
      await waitFor('the first write to wait for the lock', async () => {
        const { rows } = await locker.query(
          "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()",
        );
        return rows.length > 0 ? true : undefined;
      });
      for (let tick = 0; tick < 50; tick += 1) {
        counter.count(keyId, 60);
        jest.advanceTimersByTime(intervalMs);
      }
    } finally {
      jest.useRealTimers();
      await locker.query('ROLLBACK');
      await locker.end();
    }

    await counter.flush();
    expect(shared.writes).toBe(2); // the slow write, then one with everything counted meanwhile
    expect((await stored(keyId)).request_count).toBe('51');
  });
});
