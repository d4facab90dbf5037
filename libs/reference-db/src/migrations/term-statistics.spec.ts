import { QueryTypes } from 'sequelize';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { migrations } from './index';

describe('statistics of disease terms', () => {
  let db: ScratchDatabase;
  beforeAll(async () => {
    db = await createScratchDatabase('refstats', migrations);
  });
  afterAll(() => db?.drop());

  it('keep the histogram too short for the planner to run the trigram operators on it', async () => {
    // 5,000 different terms: with the default target, ANALYZE would keep a histogram of 100 of them.
    await db.sequelize.query(`
      INSERT INTO diseases (disease_id, name) SELECT 'MESH:T' || i, 'Disease ' || md5(i::text) FROM generate_series(1, 5000) AS i;
      INSERT INTO disease_terms (disease_pk, term, is_name) SELECT id, lower(name), true FROM diseases;
      ANALYZE disease_terms;
    `);
    const [stats] = await db.sequelize.query<{ histogram: number | null }>(
      `SELECT array_length(histogram_bounds::text::text[], 1) AS histogram FROM pg_stats WHERE tablename = 'disease_terms' AND attname = 'term'`,
      { type: QueryTypes.SELECT },
    );
    // Under 10 entries, pg_trgm's estimate is a fixed selectivity instead of a similarity per entry (0005-term-statistics).
    expect(stats.histogram).toBeLessThan(10);
  });
});
