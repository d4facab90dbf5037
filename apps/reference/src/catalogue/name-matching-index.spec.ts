import { QueryTypes } from 'sequelize';
import { migrations } from '@libs/reference-db';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { anyContains, SqlParams } from './sql-params';

/**
 * Name matching must be servable by the trigram indexes. Which plan wins
 * depends on table sizes, so the planner is told to avoid sequential scans:
 * a predicate no index can answer would still be a Seq Scan then.
 */
describe('catalogue name matching', () => {
  let db: ScratchDatabase;
  const ROWS = 2_000;

  beforeAll(async () => {
    db = await createScratchDatabase('refindex', migrations);
    await db.sequelize.query(`
      INSERT INTO lab_tests (source_id, name, category_name, sub_category_name)
      SELECT 'synthetic:' || i, 'Test ' || md5(i::text), 'Category ' || (i % 50), 'Sub ' || md5((i * 7)::text)
        FROM generate_series(1, ${ROWS}) AS i;
      INSERT INTO drugs (source_id, name) SELECT 'synthetic:' || i, 'Drug ' || md5(i::text) FROM generate_series(1, ${ROWS}) AS i;
      INSERT INTO premises (source_id, name, type, address)
      SELECT 'synthetic:' || i, 'Premise ' || md5(i::text), 'pharmacy', '{}' FROM generate_series(1, ${ROWS}) AS i;
      INSERT INTO conditions (source_id, name) SELECT 'synthetic:' || i, 'Condition ' || md5(i::text) FROM generate_series(1, ${ROWS}) AS i;
      ANALYZE;
    `);
  }, 60_000);
  afterAll(() => db.drop());

  async function plan(table: string, column: string, terms: string[]): Promise<string> {
    const params = new SqlParams();
    const where = anyContains(params, column, terms);
    return db.sequelize.transaction(async (transaction) => {
      await db.sequelize.query('SET LOCAL enable_seqscan = off', { transaction });
      const rows = await db.sequelize.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT t.id FROM ${table} t WHERE ${where}`, {
        bind: params.values,
        type: QueryTypes.SELECT,
        transaction,
      });
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
  }

  it.each([
    ['lab_tests', 't.search_text', ['potassium', 'haemo'], 'lab_tests_search_trgm'],
    ['drugs', 't.name', ['paracetamol'], 'drugs_name_trgm'],
    ['premises', 't.name', ['pharmacy of hope'], 'premises_name_trgm'],
    ['conditions', 't.name', ['diabetes'], 'conditions_name_trgm'],
  ])('%s matches %s through its trigram index', async (table, column, terms, index) => {
    const explained = await plan(table, column, terms);
    expect(explained).toContain(index);
    expect(explained).not.toMatch(/Seq Scan/);
  });
});
