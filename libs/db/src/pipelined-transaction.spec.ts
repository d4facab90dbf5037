import { QueryTypes, type Sequelize } from 'sequelize';
import { pipelinedTransaction } from './pipelined-transaction';
import { runStatements } from './pipelined';
import { createSequelize } from './sequelize';
import { scratchDatabase } from './scratch-database';

const database = scratchDatabase('pipelined');

const insert = (note: string) => ({ name: 'test.insert', text: 'INSERT INTO notes (note) VALUES ($1) RETURNING id', values: [note] });

describe('pipelinedTransaction', () => {
  let sequelize: Sequelize;
  beforeAll(async () => {
    await database.create();
    // One connection: every test reuses the client the one before it gave back.
    sequelize = createSequelize(database.url, 1);
    await sequelize.query('CREATE TABLE notes (id serial PRIMARY KEY, note text NOT NULL CHECK (note <> \'\'))');
  });
  afterAll(async () => {
    await sequelize?.close();
    await database.drop();
  });
  beforeEach(() => sequelize.query('TRUNCATE notes'));

  const notes = async () =>
    (await sequelize.query<{ note: string }>('SELECT note FROM notes ORDER BY id', { type: QueryTypes.SELECT })).map((row) => row.note);

  it('commits the statements of every round, and gives each statement its rows', async () => {
    const ids = await pipelinedTransaction(sequelize, async (rounds) => {
      const [[first], [second]] = await rounds.run<{ id: number }>([insert('a'), insert('b')]);
      await rounds.last([insert(`after ${first.id}`)]);
      return [first.id, second.id];
    });
    expect(ids).toHaveLength(2);
    expect(await notes()).toEqual(['a', 'b', `after ${ids[0]}`]);
  });

  it('commits nothing when a statement of the last round fails, and rejects with its error', async () => {
    const failed = pipelinedTransaction(sequelize, async (rounds) => {
      await rounds.run([insert('a')]);
      await rounds.last([insert(''), insert('c')]);
    });
    await expect(failed).rejects.toMatchObject({ code: '23514' });
    expect(await notes()).toEqual([]);
  });

  it('rolls back when the work throws between rounds', async () => {
    const failed = pipelinedTransaction(sequelize, async (rounds) => {
      await rounds.run([insert('a')]);
      throw new Error('a reference is missing');
    });
    await expect(failed).rejects.toThrow('a reference is missing');
    expect(await notes()).toEqual([]);
  });

  it('commits when the work never sends a last round', async () => {
    await pipelinedTransaction(sequelize, (rounds) => rounds.run([insert('a')]));
    expect(await notes()).toEqual(['a']);
  });

  it('holds its settings for every statement of the transaction, and ends them with it', async () => {
    const timeout = { name: 'test.timeout', text: "SELECT current_setting('statement_timeout') AS timeout", values: [] };
    const rounds = await pipelinedTransaction(
      sequelize,
      async (rounds) => [...(await rounds.run([timeout])), ...(await rounds.last([timeout]))],
      { settings: ["SET LOCAL statement_timeout = '1234ms'"] },
    );
    expect(rounds).toEqual([[{ timeout: '1234ms' }], [{ timeout: '1234ms' }]]);
    const [{ rows }] = await runStatements(sequelize, [timeout]);
    expect(rows).toEqual([{ timeout: '0' }]);
  });

  it('gives the client back usable, out of pipeline mode, outside any transaction', async () => {
    await pipelinedTransaction(sequelize, (rounds) => rounds.run([insert('a')])).catch(() => undefined);
    const [{ rows }] = await runStatements(sequelize, [{ text: 'SELECT now() <> statement_timestamp() AS inside', values: [] }]);
    expect(rows).toEqual([{ inside: false }]);
    await sequelize.transaction((transaction) => sequelize.query("INSERT INTO notes (note) VALUES ('b')", { transaction }));
    expect(await notes()).toEqual(['a', 'b']);
  });
});
