import { QueryTypes } from 'sequelize';
import { DEFAULT_SEARCH_STATEMENT_TIMEOUT_MS, DISEASE_TERMS, fuzzyPage, listDiseases, migrations } from '@libs/reference-db';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { misspell, seededRandom } from '../search-quality/typos';
import { generateDiseases } from './diseases';

describe('npm run generate -- diseases', () => {
  let db: ScratchDatabase;
  beforeAll(async () => {
    db = await createScratchDatabase('generate', migrations);
    await generateDiseases(db.url, 2_500, () => undefined);
  });
  afterAll(() => db.drop());

  const count = async (sql: string) => (await db.sequelize.query<{ n: number }>(sql, { type: QueryTypes.SELECT }))[0].n;

  it('adds the diseases asked for, each with its name and synonyms as search terms', async () => {
    expect(await count('SELECT count(*)::int AS n FROM diseases')).toBe(2_500);
    expect(await count('SELECT count(DISTINCT disease_pk)::int AS n FROM disease_terms WHERE is_name')).toBe(2_500);
    expect(await count('SELECT count(*)::int AS n FROM disease_terms WHERE NOT is_name')).toBeGreaterThan(2_500);
  });

  it('makes diseases the search finds, exactly and misspelt', async () => {
    const search = { sequelize: db.sequelize, statementTimeoutMs: DEFAULT_SEARCH_STATEMENT_TIMEOUT_MS };
    const [sample] = await listDiseases(search, { order: 'id', limit: 1, after: ['', '1200'] }, 'names');
    const exact = await listDiseases(search, { exactTerm: sample.name.toLowerCase(), order: 'id', limit: 5 }, 'names');
    expect(exact.map((row) => row.id)).toContain(sample.id);
    const misspelt = misspell(sample.name.toLowerCase(), seededRandom(7));
    const fuzzy = await fuzzyPage(search, DISEASE_TERMS, misspelt, 'relevance', 25);
    expect(fuzzy.pks[0]).toBe(sample.id);
  });

  it('adds to what is there, with new ids', async () => {
    await generateDiseases(db.url, 10, () => undefined);
    expect(await count('SELECT count(DISTINCT disease_id)::int AS n FROM diseases')).toBe(2_510);
  });
});
