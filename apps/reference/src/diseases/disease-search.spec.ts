import { CursorCodec } from '@libs/cursor';
import { referenceV1 } from '@libs/contracts';
import { GrpcStatus, RpcError } from '@libs/grpc';
import { DEFAULT_SEARCH_STATEMENT_TIMEOUT_MS, migrations, TermTables, upsertDiseases, VOCABULARIES } from '@libs/reference-db';
import { createScratchDatabase, diseaseRecord, type ScratchDatabase } from '@libs/testing';
import { DEFAULT_DISEASES, loadDiseases } from '../testing/disease-data';
import { diseaseHandlers } from './disease-handlers';
import { searchRequest } from './search-request.fixture';

type Search = ReturnType<typeof diseaseHandlers>['searchDiseases'];
/** Disease search as the service runs it: the near pass from the terms in memory (near-pass.spec.ts holds it to the index's). */
const searchWith = (db: ScratchDatabase, statementTimeoutMs: number): Search =>
  diseaseHandlers(
    { sequelize: db.sequelize, statementTimeoutMs, terms: new TermTables(db.sequelize, VOCABULARIES) },
    new CursorCodec('test-cursor-secret-0123456789'),
  ).searchDiseases;

describe('disease search on the default dataset', () => {
  let db: ScratchDatabase;
  let search: Search;
  let added = 0;

  beforeAll(async () => {
    db = await createScratchDatabase('refsearch', migrations);
    await loadDiseases(db, DEFAULT_DISEASES);
    search = searchWith(db, DEFAULT_SEARCH_STATEMENT_TIMEOUT_MS);
  });
  afterAll(() => db?.drop());

  /** A disease that every walk below matches, inserted while a walk is under way. */
  async function addDisease(): Promise<void> {
    added += 1;
    const disease = diseaseRecord({ diseaseName: `Syndrome Added ${added}`, diseaseId: `MESH:Z${900000 + added}` });
    await db.sequelize.transaction((t) => upsertDiseases(db.sequelize, [disease], t));
  }

  const walks: [string, Partial<referenceV1.SearchDiseasesRequest>][] = [
    ['every disease', {}],
    ['every disease by name, ascending', { sortByName: true }],
    ['every disease by name, descending', { sortByName: true, order: referenceV1.SortOrder.SORT_ORDER_DESC }],
    ['a fuzzy search by relevance', { name: 'syndrome' }],
    ['a fuzzy search by name', { name: 'syndrome', sortByName: true }],
  ];

  it.each(walks)('walks %s: every match exactly once, also while rows are added', async (_label, fields) => {
    const before = new Set<string>();
    let cursor = '';
    do {
      const page = await search(searchRequest({ ...fields, batchSize: 250, cursor }));
      page.diseases.forEach((d) => before.add(d.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(before.size).toBeGreaterThan(20);

    const seen: string[] = [];
    let pages = 0;
    do {
      const page = await search(searchRequest({ ...fields, batchSize: 7, cursor }));
      seen.push(...page.diseases.map((d) => d.id));
      cursor = page.nextCursor;
      if (++pages % 3 === 0) await addDisease();
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of before) expect(seen).toContain(id);
  }, 60_000);

  it.each([...walks, ['an exact search', { name: 'Asthma', exact: true }], ['an exact search by name', { name: 'asthma', exact: true, sortByName: true }]])(
    'answers %s with names alone as it answers it in full: the same diseases, order, pages and cursors',
    async (_label, fields: Partial<referenceV1.SearchDiseasesRequest>) => {
      let cursor = '';
      let pages = 0;
      do {
        const full = await search(searchRequest({ ...fields, batchSize: 5, cursor }));
        const names = await search(searchRequest({ ...fields, batchSize: 5, cursor, namesOnly: true }));
        expect(full.diseases.length).toBeGreaterThan(0);
        // The full answer has what the names-only one leaves out, so the comparison below can tell them apart.
        expect(full.diseases.every((d) => d.diseaseId !== '')).toBe(true);
        expect(names).toEqual({
          diseases: full.diseases.map(({ id, diseaseName }) => referenceV1.Disease.create({ id, diseaseName })),
          nextCursor: full.nextCursor,
        });
        // One form's cursor serves the other's next page (they are the same cursor: the fields read are not bound).
        cursor = pages % 2 === 0 ? names.nextCursor : full.nextCursor;
      } while (cursor && ++pages < 4);
    },
  );

  it('leaves nextCursor empty on the last page', async () => {
    const page = await search(searchRequest({ name: 'asthma', exact: true }));
    expect(page.diseases.map((d) => d.diseaseName)).toEqual(['Asthma']);
    expect(page.nextCursor).toBe('');
  });

  it('finds misspelt names best first', async () => {
    expect((await search(searchRequest({ name: 'diabtes melitus' }))).diseases[0].diseaseName).toBe('Diabetes Mellitus');
    expect((await search(searchRequest({ name: 'alzhiemer' }))).diseases.map((d) => d.diseaseName)).toContain('Alzheimer Disease');
  });

  it('finds what a misspelling at the first letter, a part match or a near tie used to hide', async () => {
    const disease = (diseaseName: string, diseaseId: string, synonyms: string[]) => diseaseRecord({ diseaseName, diseaseId, synonyms });
    // Real names (the default dataset has Dystonia only), added after it: ties on everything else go to the older id.
    const added = [
      disease('Skull Neoplasms', 'MESH:D012888', ['Skull Neoplasm']),
      disease('Polydipsia', 'MESH:D059606', ['Polydipsias']),
      disease('Polydipsia, Psychogenic', 'MESH:D059607', ['Psychogenic Polydipsia']),
      disease('Autolysis', 'MESH:D001329', ['Autolyses']),
      disease('Osteolysis', 'MESH:D010014', ['Osteolyses']),
      disease('Dystocia', 'MESH:D004420', ['Dystocias']),
    ];
    await db.sequelize.transaction((t) => upsertDiseases(db.sequelize, added, t));
    const top = async (name: string, count: number) =>
      (await search(searchRequest({ name, batchSize: count }))).diseases.map((d) => d.diseaseName);
    // Two swaps, one at the first letter: 7 of 15 trigrams left, a similarity of 7/23, exactly the wide pass's bound.
    expect(await top('Ksull Neoplsam', 1)).toEqual(['Skull Neoplasms']);
    // "polydipsia, psychogenic" matches in part; the whole name is two typos away and only the wide pass finds it.
    expect(await top('Pylydpsia', 1)).toEqual(['Polydipsia']);
    // Two dropped letters are likelier than a dropped and a wrong one.
    expect(await top('stolyses', 2)).toEqual(['Osteolysis', 'Autolysis']);
    // One dropped letter from both; "dystocias" is two from it as well.
    expect(await top('Dystoia', 2)).toEqual(['Dystocia', 'Dystonia']);
  });

  const fieldOf = async (fields: Partial<referenceV1.SearchDiseasesRequest>) => {
    try {
      await search(searchRequest(fields));
    } catch (error) {
      return (error as RpcError).fieldErrors;
    }
    throw new Error('expected the request to be refused');
  };

  it('refuses control characters in n for every kind of search: a NUL would break the statement it is sent in', async () => {
    for (const kind of [{}, { sortByName: true }, { exact: true }]) {
      for (const name of ['diab\u0000etes', 'a\u0007b', '\u007f']) {
        expect(await fieldOf({ ...kind, name })).toEqual([{ field: 'n', message: 'must not contain control characters' }]);
      }
    }
  });

  it('refuses a tampered cursor and one replayed with other filters', async () => {
    const first = await search(searchRequest({ name: 'syndrome', batchSize: 5 }));
    const [payload, signature] = first.nextCursor.split('.');
    const tampered = `${Buffer.from(Buffer.from(payload, 'base64url').toString().replace(/\d/, '9')).toString('base64url')}.${signature}`;
    expect(await fieldOf({ name: 'syndrome', cursor: tampered })).toEqual([{ field: 'cursor', message: expect.stringMatching(/signature/) }]);
    expect(await fieldOf({ name: 'syndrome', sortByName: true, cursor: first.nextCursor })).toEqual([
      { field: 'cursor', message: expect.stringMatching(/different query/) },
    ]);
    expect(await fieldOf({ name: 'syndromes', cursor: first.nextCursor })).toEqual([{ field: 'cursor', message: expect.stringMatching(/different query/) }]);
  });

  it('stops every kind of search at the statement timeout, as RESOURCE_EXHAUSTED with a fixed message', async () => {
    const impatient = searchWith(db, 100);
    // Another transaction holds both tables, so each search statement waits as long as it is allowed to.
    const holder = await db.sequelize.transaction();
    await db.sequelize.query('LOCK TABLE diseases, disease_terms IN ACCESS EXCLUSIVE MODE', { transaction: holder });
    // A statement without the timeout would wait for the lock: release it after a while in any case, so that
    // such a search ends (with an answer, failing the test) instead of hanging it.
    let released: Promise<void> | undefined;
    const release = () => (released ??= holder.rollback());
    const timer = setTimeout(release, 10_000);
    try {
      const kinds: Partial<referenceV1.SearchDiseasesRequest>[] = [
        { name: 'asthma' },
        { name: 'asthma', sortByName: true },
        { name: 'asthma', exact: true },
        {},
        { sortByName: true },
      ];
      for (const kind of kinds) {
        await expect(impatient(searchRequest(kind))).rejects.toMatchObject({
          code: GrpcStatus.RESOURCE_EXHAUSTED,
          message: 'the search ran longer than the 100 ms allowed at the database and was stopped; retry later, or search for something more specific',
          retryAfterSeconds: 1,
        });
      }
    } finally {
      clearTimeout(timer);
      await release();
    }
    expect((await impatient(searchRequest({ name: 'asthma', exact: true }))).diseases.map((d) => d.diseaseName)).toEqual(['Asthma']);
  }, 30_000);
});
