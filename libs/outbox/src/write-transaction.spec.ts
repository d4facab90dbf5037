import { QueryTypes, type Transaction } from 'sequelize';
import type { Migration, Statement } from '@libs/db';
import { METADATA, type CallContext } from '@libs/grpc';
import { IDEMPOTENCY_KEYS_TABLE } from '@libs/idempotency';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { writeTransaction, writeTransactionInRounds, type OnceCall } from './write-transaction';

const migrations: Migration[] = [
  {
    name: 'write-transaction-spec',
    up: async ({ context }) =>
      void (await context.sequelize.query(`${IDEMPOTENCY_KEYS_TABLE}
        CREATE TABLE counters (id int PRIMARY KEY, value int NOT NULL);`)),
    down: async ({ context }) => void (await context.sequelize.query('DROP TABLE counters; DROP TABLE idempotency_keys;')),
  },
];

const actor = { userId: 'u1', role: 'writer' };
const passThrough = { toJSON: (message: { value: number }) => message, fromJSON: (object: unknown) => object as { value: number } };

/** Lets each of two writers go on only once both have reached it; later attempts pass straight through. */
function barrierForTwo() {
  let arrived = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return async () => {
    arrived += 1;
    if (arrived > 2) return;
    if (arrived === 2) release();
    await released;
  };
}

describe('writeTransaction (PostgreSQL)', () => {
  let db: ScratchDatabase;
  let commits: number;
  const deps = () => ({ sequelize: db.sequelize, afterCommit: () => void (commits += 1) });

  beforeAll(async () => {
    db = await createScratchDatabase('writes', migrations);
  });
  afterAll(() => db?.drop());
  beforeEach(async () => {
    commits = 0;
    await db.sequelize.query('TRUNCATE counters, idempotency_keys; INSERT INTO counters VALUES (1, 0), (2, 0);');
  });

  const values = async () =>
    (await db.sequelize.query<{ value: number }>('SELECT value FROM counters ORDER BY id', { type: QueryTypes.SELECT })).map((row) => row.value);
  const increment = (id: number, transaction: Transaction) =>
    db.sequelize.query('UPDATE counters SET value = value + 1 WHERE id = $1', { bind: [id], transaction });
  const incrementStatement = (id: number): Statement => ({ text: 'UPDATE counters SET value = value + 1 WHERE id = $1', values: [id] });
  const headers: Record<string, string>[] = [];
  const context: CallContext = { requestId: 'r1', sendHeaders: (sent) => void headers.push(sent) };
  const once = (key: string): OnceCall<{ value: number }> => ({ method: 'Increment', key, request: { id: 1 }, codec: passThrough, actor, context });


  it('runs a write that lost a deadlock again, and wakes the relay once per commit', async () => {
    let attempts = 0;
    const bothLocked = barrierForTwo();
    // Each locks one row, waits until the other has locked the other row, then wants it: PostgreSQL ends one.
    const writer = (first: number, second: number) =>
      writeTransaction(deps(), undefined, async (transaction) => {
        attempts += 1;
        await increment(first, transaction);
        await bothLocked();
        await increment(second, transaction);
        return first;
      });
    expect(await Promise.all([writer(1, 2), writer(2, 1)])).toEqual([1, 2]);
    expect(attempts).toBe(3);
    expect(commits).toBe(2);
    expect(await values()).toEqual([2, 2]);
  });

  it('runs a pipelined write (no Idempotency-Key) that lost a deadlock again', async () => {
    let attempts = 0;
    const bothLocked = barrierForTwo();
    const writer = (first: number, second: number) =>
      writeTransactionInRounds(deps(), once(''), async (rounds) => {
        attempts += 1;
        await rounds.run([incrementStatement(first)]);
        await bothLocked();
        await rounds.last([incrementStatement(second)]);
        return { value: first };
      });
    expect(await Promise.all([writer(1, 2), writer(2, 1)])).toEqual([{ value: 1 }, { value: 2 }]);
    expect(attempts).toBe(3);
    expect(commits).toBe(2);
    expect(await values()).toEqual([2, 2]);
  });

  it.each([
    ['writeTransaction', (key: string) => writeTransaction(deps(), once(key), async (transaction) => {
      await increment(1, transaction);
      return { value: 1 };
    })],
    ['writeTransactionInRounds', (key: string) => writeTransactionInRounds(deps(), once(key), async (rounds) => {
      await rounds.last([incrementStatement(1)]);
      return { value: 1 };
    })],
  ])('%s: a replayed key commits nothing new, answers the first response and marks it a replay', async (_name, write) => {
    headers.length = 0;
    expect(await write('key-1')).toEqual({ value: 1 });
    expect(await write('key-1')).toEqual({ value: 1 });
    expect(await values()).toEqual([1, 0]);
    expect(commits).toBe(1);
    expect(headers).toEqual([{ [METADATA.idempotentReplayed]: 'true' }]);
    // Without a key, every call writes.
    await write('');
    await write('');
    expect(await values()).toEqual([3, 0]);
    expect(commits).toBe(3);
  });
});
