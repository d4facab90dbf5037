import { QueryTypes, Transaction, type Sequelize } from 'sequelize';
import { retryOnConflict } from './conflict-retry';
import { createSequelize } from './sequelize';
import { scratchDatabase } from './scratch-database';

const database = scratchDatabase('conflicts');

/** A promise and the function that settles it: where one transaction waits for the other. */
function signal(): { reached: Promise<void>; reach: () => void } {
  let reach!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  return { reached, reach };
}

describe('retryOnConflict (PostgreSQL)', () => {
  let sequelize: Sequelize;
  beforeAll(async () => {
    await database.create();
    sequelize = createSequelize(database.url, 4);
    await sequelize.query('CREATE TABLE counters (id int PRIMARY KEY, value int NOT NULL)');
  });
  afterAll(async () => {
    await sequelize?.close();
    await database.drop();
  });
  beforeEach(() => sequelize.query('TRUNCATE counters; INSERT INTO counters VALUES (1, 0), (2, 0)'));

  const values = async () =>
    (await sequelize.query<{ value: number }>('SELECT value FROM counters ORDER BY id', { type: QueryTypes.SELECT })).map((row) => row.value);
  const increment = (id: number, transaction: Transaction) =>
    sequelize.query('UPDATE counters SET value = value + 1 WHERE id = $1', { bind: [id], transaction });

  it('runs the transaction that lost a deadlock again, so both writers commit', async () => {
    let attempts = 0;
    let locked = 0;
    const bothLocked = signal();
    // Each locks one row, waits until the other has locked the other row, then wants it: PostgreSQL ends one.
    const writer = (first: number, second: number) =>
      retryOnConflict(() =>
        sequelize.transaction(async (transaction) => {
          attempts += 1;
          await increment(first, transaction);
          if (attempts <= 2) {
            locked += 1;
            if (locked === 2) bothLocked.reach();
            await bothLocked.reached;
          }
          await increment(second, transaction);
          return first;
        }),
      );
    expect(await Promise.all([writer(1, 2), writer(2, 1)])).toEqual([1, 2]);
    expect(attempts).toBe(3);
    expect(await values()).toEqual([2, 2]);
  });

  it('runs a repeatable-read transaction again after a serialization failure', async () => {
    let attempts = 0;
    const snapshotTaken = signal();
    const otherCommitted = signal();
    // Its snapshot is older than the other's committed update of the same row: PostgreSQL refuses its own (40001).
    const reader = retryOnConflict(() =>
      sequelize.transaction({ isolationLevel: Transaction.ISOLATION_LEVELS.REPEATABLE_READ }, async (transaction) => {
        attempts += 1;
        await sequelize.query('SELECT value FROM counters WHERE id = 1', { transaction });
        if (attempts === 1) {
          snapshotTaken.reach();
          await otherCommitted.reached;
        }
        await increment(1, transaction);
      }),
    );
    await snapshotTaken.reached;
    await sequelize.transaction((transaction) => increment(1, transaction));
    otherCommitted.reach();
    await reader;
    expect(attempts).toBe(2);
    expect(await values()).toEqual([2, 0]);
  });

  it('gives up after four attempts, with the conflict', async () => {
    let attempts = 0;
    const failing = retryOnConflict(() =>
      sequelize.transaction(async (transaction) => {
        attempts += 1;
        await increment(1, transaction);
        await sequelize.query("DO $$ BEGIN RAISE EXCEPTION 'always in conflict' USING ERRCODE = 'serialization_failure'; END $$", { transaction });
      }),
    );
    await expect(failing).rejects.toMatchObject({ original: { code: '40001' } });
    expect(attempts).toBe(4);
    expect(await values()).toEqual([0, 0]);
  });

  it('does not run again a transaction that failed for another reason', async () => {
    let attempts = 0;
    const failing = retryOnConflict(() =>
      sequelize.transaction(async (transaction) => {
        attempts += 1;
        await sequelize.query('INSERT INTO counters VALUES (1, 0)', { transaction });
      }),
    );
    await expect(failing).rejects.toMatchObject({ original: { code: '23505' } });
    expect(attempts).toBe(1);
  });
});
