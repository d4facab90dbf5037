import { join } from 'node:path';
import { QueryTypes } from 'sequelize';
import { createLogger } from '@libs/logging';
import { migrations } from '@libs/reference-db';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { loadDefaultData } from './load-default-data';

const DATA_DIR = join(__dirname, '../../default-data');

describe('the default dataset', () => {
  let db: ScratchDatabase;
  const count = async (sql: string) =>
    (await db.sequelize.query<{ n: number }>(sql, { type: QueryTypes.SELECT }))[0]?.n;

  beforeAll(async () => {
    db = await createScratchDatabase('refdefault', migrations);
    await loadDefaultData(db.sequelize, DATA_DIR, createLogger('test', 'silent'));
  });
  afterAll(() => db.drop());

  it('holds at least the sizes the default dataset promises (docs/decisions/0011)', async () => {
    expect(await count('SELECT count(*)::int AS n FROM lab_tests')).toBeGreaterThanOrEqual(120);
    expect(await count('SELECT count(*)::int AS n FROM drugs')).toBeGreaterThanOrEqual(200);
    expect(await count('SELECT count(*)::int AS n FROM dosages')).toBeGreaterThanOrEqual(600);
    expect(await count('SELECT count(*)::int AS n FROM conditions')).toBeGreaterThanOrEqual(60);
    expect(await count('SELECT count(*)::int AS n FROM food_interactions')).toBeGreaterThanOrEqual(80);
    expect(await count('SELECT count(*)::int AS n FROM premises')).toBeGreaterThanOrEqual(50);
  });

  it('names every ATC level 1 and 2 group, and every group above each code the drugs use', async () => {
    expect(await count('SELECT count(*)::int AS n FROM drug_categories WHERE level = 1')).toBe(14);
    expect(await count('SELECT count(*)::int AS n FROM drug_categories WHERE level = 2')).toBeGreaterThanOrEqual(90);
    const orphans = await count(`
      SELECT count(*)::int AS n FROM drug_atc_codes a, unnest(ARRAY[1, 3, 4, 5, 7]) AS len
       WHERE NOT EXISTS (SELECT 1 FROM drug_categories c WHERE c.code = left(a.atc_code, len))`);
    expect(orphans).toBe(0);
  });

  it('links every indication and food interaction to a drug of the catalogue', async () => {
    expect(
      await count(`SELECT count(*)::int AS n FROM indications i
                    WHERE NOT EXISTS (SELECT 1 FROM drugs d WHERE d.drugbank_id = i.drugbank_id OR lower(d.name) = lower(i.drug_name))`),
    ).toBe(0);
    expect(
      await count(`SELECT count(*)::int AS n FROM food_interactions f
                    WHERE NOT EXISTS (SELECT 1 FROM drugs d WHERE d.drugbank_id = f.drugbank_id OR lower(d.name) = lower(f.drug_name))`),
    ).toBe(0);
  });

  it('marks every premise as sample data', async () => {
    expect(await count("SELECT count(*)::int AS n FROM premises WHERE NOT sample_data OR name NOT LIKE 'Sample %'")).toBe(0);
  });

  it('is left as it is on restart', async () => {
    await db.sequelize.query("UPDATE drugs SET description = 'edited' WHERE name = 'Warfarin'");
    await loadDefaultData(db.sequelize, DATA_DIR, createLogger('test', 'silent'));
    expect(await count("SELECT count(*)::int AS n FROM drugs WHERE description = 'edited'")).toBe(1);
    expect(await count('SELECT count(*)::int AS n FROM dataset_loads')).toBe(2);
  });
});
