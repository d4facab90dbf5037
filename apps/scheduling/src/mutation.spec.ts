import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { migrations } from './migrations';
import { mutate } from './mutation';

describe('mutate (PostgreSQL)', () => {
  let db: ScratchDatabase;
  beforeAll(async () => {
    db = await createScratchDatabase('scheduling', migrations);
    await db.sequelize.query('CREATE TABLE counters (id int PRIMARY KEY, value int NOT NULL); INSERT INTO counters VALUES (1, 0), (2, 0);');
  });
  afterAll(() => db?.drop());

  it('runs a transaction that lost a deadlock again, so both writers succeed', async () => {
    let attempts = 0;
    let commits = 0;
    let arrived = 0;
    let bothLocked!: () => void;
    const barrier = new Promise<void>((resolve) => (bothLocked = resolve));
    const deps = { sequelize: db.sequelize, afterCommit: () => void (commits += 1) };
    // Each locks one row, waits until the other has locked the other row, then wants it: a deadlock.
    const writer = (first: number, second: number) =>
      mutate(deps, { userId: 'u', role: 'admin' }, undefined, async (transaction) => {
        attempts += 1;
        await db.sequelize.query('UPDATE counters SET value = value + 1 WHERE id = $1', { bind: [first], transaction });
        if (attempts <= 2) {
          arrived += 1;
          if (arrived === 2) bothLocked();
          await barrier;
        }
        await db.sequelize.query('UPDATE counters SET value = value + 1 WHERE id = $1', { bind: [second], transaction });
        return first;
      });
    expect(await Promise.all([writer(1, 2), writer(2, 1)])).toEqual([1, 2]);
    expect(attempts).toBe(3);
    expect(commits).toBe(2);
    const [rows] = await db.sequelize.query('SELECT id, value FROM counters ORDER BY id');
    expect(rows).toEqual([{ id: 1, value: 2 }, { id: 2, value: 2 }]);
  });
});
