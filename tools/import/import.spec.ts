import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { QueryTypes } from 'sequelize';
import { migrations } from '@libs/reference-db';
import { createScratchDatabase, sharedDataDir, sharedDataFile, type ScratchDatabase } from '@libs/testing';
import { runImport } from './run-import';
import { SOURCES } from './sources/index';

const ROOT = join(__dirname, '../..');
const FIXTURES = join(ROOT, 'libs/source-formats/fixtures');

describe('npm run import (the command line)', () => {
  let db: ScratchDatabase;
  beforeAll(async () => {
    db = await createScratchDatabase('refimportcli', migrations);
  });
  afterAll(() => db?.drop());

  const run = (...args: string[]) =>
    spawnSync(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(__dirname, 'main.ts'), ...args], {
      env: { ...process.env, DATABASE_URL: db.url },
      encoding: 'utf8',
    });

  it('imports the good rows, lists the rejected ones with their line, and exits 0', async () => {
    const result = run('ctd', join(FIXTURES, 'ctd-sample.tsv'));
    expect(result.stderr).toMatch(/ctd-sample\.tsv:8: rejected: missing name or malformed DiseaseID "NOT-AN-ID"/);
    expect(result.stderr).toMatch(/ctd-sample\.tsv:9: rejected: expected 9 fields, found 3/);
    expect(result.stdout).toBe('ctd: 2 rows imported, 2 rejected\n');
    expect(result.status).toBe(0);
    const [{ n }] = await db.sequelize.query<{ n: number }>("SELECT count(*)::int AS n FROM diseases WHERE disease_id LIKE 'MESH:D9%'", {
      type: QueryTypes.SELECT,
    });
    expect(n).toBe(2);
  }, 60_000);

  it('exits non-zero with a clear line when the import cannot run', () => {
    const unknown = run('nosuch', join(FIXTURES, 'ctd-sample.tsv'));
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown source "nosuch"/);
    const missing = run('atc', join(FIXTURES, 'no-such-file.csv'));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/no-such-file\.csv: no such file/);
    const wrongFormat = run('atc', join(FIXTURES, 'food-sample.csv'));
    expect(wrongFormat.status).toBe(1);
    expect(wrongFormat.stderr).toMatch(/expected the header atc_code/);
  }, 60_000);
});

const FILES: [string, string[]][] = [
  ['ctd', ['ctd', 'CTD_diseases.tsv.gz']],
  ['drugsatfda', ['drugsatfda', 'Products.txt']],
  ['atc', ['atc', 'who-atc-ddd-2026-04-25.csv']],
  ['indications', ['indications', 'indications.tsv']],
  ['food', ['food', 'drugbank_drug_food_interactions.csv']],
];
const present = FILES.every(([, parts]) => sharedDataFile(...parts));
const describeFull = present ? describe : describe.skip;
if (!present) console.warn(`skipping the full import test: the public datasets are not in ${sharedDataDir()} (set SHARED_DATA_DIR)`);

describeFull('importing every file of the public datasets', () => {
  let db: ScratchDatabase;
  const count = async (sql: string) => (await db.sequelize.query<{ n: number }>(sql, { type: QueryTypes.SELECT }))[0].n;
  const importAll = async () => {
    const rejected: Record<string, number> = {};
    for (const [source, parts] of FILES) {
      const result = await runImport(db.sequelize, SOURCES[source], sharedDataFile(...parts) as string, () => undefined);
      rejected[source] = result.rejected;
    }
    return rejected;
  };

  beforeAll(async () => {
    db = await createScratchDatabase('refimportall', migrations);
  });
  afterAll(() => db?.drop());

  it('loads them all, with the published counts and known records', async () => {
    const started = Date.now();
    const rejected = await importAll();
    // Reported, not asserted: speed belongs to benchmarks.
    console.info(`imported every public dataset in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(rejected).toEqual({ ctd: 0, drugsatfda: 0, atc: 0, indications: expect.any(Number), food: 0 });
    expect(await count('SELECT count(*)::int AS n FROM diseases')).toBe(11_865);
    expect(await count("SELECT count(*)::int AS n FROM dosages WHERE source_id LIKE 'fda:%'")).toBe(43_877);
    expect(await count("SELECT count(*)::int AS n FROM diseases WHERE disease_id = 'MESH:D003920' AND name = 'Diabetes Mellitus'")).toBe(1);
    // A row published with a stray tab inside its Form field, repaired.
    expect(
      await count(`SELECT count(*)::int AS n FROM dosages WHERE source_id = 'fda:022388-001'
                    AND form = 'DRUG-ELUTING CONTACT LENS' AND admin_method = 'OPHTHALMIC'`),
    ).toBe(1);
    expect(await count("SELECT count(*)::int AS n FROM drug_categories WHERE code = 'N02BE01' AND level = 5 AND parent_code = 'N02BE'")).toBe(1);
    expect(await count("SELECT count(*)::int AS n FROM food_interactions WHERE drugbank_id = 'DB00006' AND advice = 'Avoid echinacea.'")).toBe(1);
    expect(await count("SELECT count(*)::int AS n FROM conditions WHERE source_id = 'DOID:10652'")).toBe(1);
  }, 300_000);

  it('changes nothing when imported again', async () => {
    const snapshot = () =>
      count(`SELECT (SELECT count(*) FROM diseases) + (SELECT count(*) FROM disease_terms) + (SELECT count(*) FROM drugs)
              + (SELECT count(*) FROM dosages) + (SELECT count(*) FROM drug_categories) + (SELECT count(*) FROM conditions)
              + (SELECT count(*) FROM indications) + (SELECT count(*) FROM food_interactions) AS n`);
    const before = await snapshot();
    await importAll();
    expect(await snapshot()).toBe(before);
  }, 300_000);
});
