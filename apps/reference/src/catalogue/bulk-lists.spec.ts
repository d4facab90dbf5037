import { status } from '@grpc/grpc-js';
import { QueryTypes } from 'sequelize';
import { REFERENCE_LIMITS, type catalogueV1 } from '@libs/contracts';
import { CursorCodec } from '@libs/cursor';
import { DEFAULT_SEARCH_STATEMENT_TIMEOUT_MS, migrations } from '@libs/reference-db';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { datasetVersionHandlers } from '../datasets/dataset-versions';
import { dosageHandlers } from './dosages';
import { drugHandlers } from './drugs';
import { foodInteractionHandlers } from './food-interactions';

/**
 * The lists of every dosage and every food interaction that the bulk download reads (ListAllDosages,
 * ListAllFoodInteractions), walked page by page over more than one page: each must give what the per-drug reads
 * give, in drug order, each record once; and the versions of migration 0011 must follow the writes to their tables.
 */

const DRUGS = 300;

/** Pages of a keyset walk, from the first to the one without a next cursor. */
async function walk<P extends { nextCursor: string }>(read: (cursor: string) => Promise<P>): Promise<P[]> {
  const pages: P[] = [];
  let cursor = '';
  do {
    const page = await read(cursor);
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor !== '');
  return pages;
}

describe('the lists of every dosage and every food interaction', () => {
  let db: ScratchDatabase;
  let dosages: ReturnType<typeof dosageHandlers>;
  let drugs: ReturnType<typeof drugHandlers>;
  let interactions: ReturnType<typeof foodInteractionHandlers>;
  const versionOf = async (dataset: string) => (await datasetVersionHandlers(db.sequelize).getDatasetVersion({ dataset })).version;

  beforeAll(async () => {
    db = await createScratchDatabase('bulklists', migrations);
    // Names in mixed case (the order ignores it), two drugs of one name (ordered by id), 0 to 4 dosages a drug,
    // and interactions joined by DrugBank id, by a name in another case, to both namesakes, and to no drug.
    await db.sequelize.query(`
      INSERT INTO drugs (source_id, name, drugbank_id)
      SELECT 'synthetic:' || i, CASE WHEN i % 2 = 0 THEN 'drug ' ELSE 'Drug ' END || md5(i::text),
             CASE WHEN i % 3 <> 0 THEN 'DB' || lpad(i::text, 5, '0') END
        FROM generate_series(1, ${DRUGS}) AS i;
      INSERT INTO drugs (source_id, name) VALUES ('synthetic:twin-1', 'Twin drug'), ('synthetic:twin-2', 'Twin drug');
      INSERT INTO dosages (source_id, drug_pk, form, strength)
      SELECT 'synthetic:' || d.id || '-' || n, d.id, 'Tablet', n * 100 || ' mg'
        FROM drugs d, generate_series(1, 4) AS n WHERE n <= d.id % 5;
      INSERT INTO food_interactions (source_id, drug_name, drugbank_id, food, severity, advice)
      SELECT 'synthetic:' || d.id || '-' || n, CASE WHEN d.drugbank_id IS NULL THEN upper(d.name) ELSE 'another name' END, d.drugbank_id,
             'Food ' || n, CASE WHEN n = 1 THEN 'major' END, 'Advice ' || n
        FROM drugs d, generate_series(1, 3) AS n WHERE n <= d.id % 4 AND d.name <> 'Twin drug';
      INSERT INTO food_interactions (source_id, drug_name, advice)
      VALUES ('synthetic:twins', 'twin drug', 'Both'), ('synthetic:absent', 'Not in the catalogue', 'None');
    `);
    const cursors = new CursorCodec('bulk-lists-secret-0123456789');
    dosages = dosageHandlers(db.sequelize, cursors);
    drugs = drugHandlers({ sequelize: db.sequelize, statementTimeoutMs: DEFAULT_SEARCH_STATEMENT_TIMEOUT_MS }, cursors);
    interactions = foodInteractionHandlers(db.sequelize, cursors);
  }, 60_000);
  afterAll(() => db?.drop());

  const flatDosages = (pages: { groups: catalogueV1.DrugDosages[] }[]) =>
    pages.flatMap((page) => page.groups.flatMap((group) => group.dosages.map((dosage) => ({ drugId: group.drugId, drugName: group.drugName, dosage }))));

  it('lists every dosage, in the pages of the largest search, as a search matching every drug lists them', async () => {
    const all = await walk((cursor) => dosages.listAllDosages({ cursor }));
    const searched = await walk((cursor) => dosages.searchDosages({ drugName: 'DRUG', batchSize: REFERENCE_LIMITS.dosageBatch.max, cursor }));
    const [{ n }] = await db.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM dosages', { type: QueryTypes.SELECT });
    expect(all.length).toBeGreaterThan(1);
    expect(flatDosages(all)).toHaveLength(n);
    expect(flatDosages(all)).toEqual(flatDosages(searched));
    for (const page of all.slice(0, -1)) expect(flatDosages([page])).toHaveLength(REFERENCE_LIMITS.dosageBatch.max);
  });

  it("lists every drug's food interactions, in drug order then by id, as each drug's own list gives them", async () => {
    const pages = await walk((cursor) => interactions.listAllFoodInteractions({ cursor }));
    const everyDrug = (await walk((cursor) => drugs.listDrugs({ name: '', cursor }))).flatMap((page) => page.drugs);
    const expected: catalogueV1.DrugFoodInteraction[] = [];
    for (const drug of everyDrug) {
      const own = await drugs.listFoodInteractions({ drugId: drug.id });
      const byId = [...own.interactions].sort((a, b) => Number(a.id) - Number(b.id));
      expected.push(...byId.map((i) => ({ ...i, drugId: drug.id, drugName: drug.name, drugDrugbankId: drug.drugbankId })));
    }
    const listed = pages.flatMap((page) => page.interactions);
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages.slice(0, -1)) expect(page.interactions).toHaveLength(REFERENCE_LIMITS.foodInteractionPage);
    expect(listed).toEqual(expected);
    // The namesakes' interaction once with each of them; the one whose drug is not in the catalogue not at all.
    expect(listed.filter((i) => i.advice === 'Both').map((i) => i.drugName)).toEqual(['Twin drug', 'Twin drug']);
    expect(listed.filter((i) => i.advice === 'None')).toEqual([]);
  });

  it("refuses another list's cursor, naming cursor", async () => {
    const searched = await dosages.searchDosages({ drugName: 'drug', batchSize: 1, cursor: '' });
    const all = await dosages.listAllDosages({ cursor: '' });
    const refused = { code: status.INVALID_ARGUMENT, fieldErrors: [{ field: 'cursor' }] };
    await expect(dosages.listAllDosages({ cursor: searched.nextCursor })).rejects.toMatchObject(refused);
    await expect(dosages.searchDosages({ drugName: 'drug', batchSize: 1, cursor: all.nextCursor })).rejects.toMatchObject(refused);
    await expect(interactions.listAllFoodInteractions({ cursor: all.nextCursor })).rejects.toMatchObject(refused);
  });

  it.each([
    ['INSERT INTO dosages (source_id, drug_pk, form) SELECT \'synthetic:new\', min(id), \'Syrup\' FROM drugs', ['dosages']],
    ['UPDATE food_interactions SET advice = advice || \'.\' WHERE source_id = \'synthetic:twins\'', ['food-interactions']],
    ['UPDATE drugs SET name = name || \' \' WHERE source_id = \'synthetic:1\'', ['drugs', 'dosages', 'food-interactions']],
    ['UPDATE lab_tests SET name = name', []],
  ])('%s renews the versions of %j, and only them', async (sql, renewed) => {
    const datasets = ['drugs', 'dosages', 'food-interactions'];
    const before = await Promise.all(datasets.map(versionOf));
    await db.sequelize.query(sql);
    const after = await Promise.all(datasets.map(versionOf));
    expect(datasets.filter((_, i) => after[i] !== before[i])).toEqual(renewed);
  });
});
