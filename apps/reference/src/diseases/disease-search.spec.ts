import { join } from 'node:path';
import { QueryTypes } from 'sequelize';
import { CursorCodec } from '@libs/cursor';
import { referenceV1 } from '@libs/contracts';
import { RpcError } from '@libs/grpc';
import { candidateFilter, candidateStatements, migrations, upsertDiseases } from '@libs/reference-db';
import { readCtdDiseases, type CtdDisease } from '@libs/source-formats';
import { createScratchDatabase, sharedDataFile, type ScratchDatabase } from '@libs/testing';
import { diseaseHandlers } from './disease-handlers';

const DEFAULT_DISEASES = join(__dirname, '../../default-data/diseases.tsv');

async function loadDiseases(db: ScratchDatabase, file: string): Promise<void> {
  const batch: CtdDisease[] = [];
  const flush = () => db.sequelize.transaction((t) => upsertDiseases(db.sequelize, batch.splice(0), t));
  for await (const row of readCtdDiseases(file)) {
    if ('record' in row) batch.push(row.record);
    if (batch.length === 1000) await flush();
  }
  await flush();
  await db.sequelize.query('ANALYZE');
}

const request = (fields: Partial<referenceV1.SearchDiseasesRequest>): referenceV1.SearchDiseasesRequest => ({
  name: '',
  exact: false,
  sortByName: false,
  order: referenceV1.SortOrder.SORT_ORDER_UNSPECIFIED,
  batchSize: 0,
  cursor: '',
  ...fields,
});

describe('disease search on the default dataset', () => {
  let db: ScratchDatabase;
  let search: ReturnType<typeof diseaseHandlers>['searchDiseases'];
  let added = 0;

  beforeAll(async () => {
    db = await createScratchDatabase('refsearch', migrations);
    await loadDiseases(db, DEFAULT_DISEASES);
    search = diseaseHandlers(db.sequelize, new CursorCodec('test-cursor-secret-0123456789')).searchDiseases;
  });
  afterAll(() => db?.drop());

  /** A disease that every walk below matches, inserted while a walk is under way. */
  async function addDisease(): Promise<void> {
    added += 1;
    const disease: CtdDisease = {
      diseaseName: `Syndrome Added ${added}`, diseaseId: `MESH:Z${900000 + added}`, altDiseaseIds: [], definition: '',
      parentIds: [], treeNumbers: [], parentTreeNumbers: [], synonyms: [], slimMappings: [],
    };
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
      const page = await search(request({ ...fields, batchSize: 250, cursor }));
      page.diseases.forEach((d) => before.add(d.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(before.size).toBeGreaterThan(20);

    const seen: string[] = [];
    let pages = 0;
    do {
      const page = await search(request({ ...fields, batchSize: 7, cursor }));
      seen.push(...page.diseases.map((d) => d.id));
      cursor = page.nextCursor;
      if (++pages % 3 === 0) await addDisease();
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of before) expect(seen).toContain(id);
  }, 60_000);

  it('leaves nextCursor empty on the last page', async () => {
    const page = await search(request({ name: 'asthma', exact: true }));
    expect(page.diseases.map((d) => d.diseaseName)).toEqual(['Asthma']);
    expect(page.nextCursor).toBe('');
  });

  it('finds misspelt names best first', async () => {
    expect((await search(request({ name: 'diabtes melitus' }))).diseases[0].diseaseName).toBe('Diabetes Mellitus');
    expect((await search(request({ name: 'alzhiemer' }))).diseases.map((d) => d.diseaseName)).toContain('Alzheimer Disease');
  });

  const fieldOf = async (fields: Partial<referenceV1.SearchDiseasesRequest>) => {
    try {
      await search(request(fields));
    } catch (error) {
      return (error as RpcError).fieldErrors;
    }
    throw new Error('expected the request to be refused');
  };

  it('refuses a tampered cursor and one replayed with other filters', async () => {
    const first = await search(request({ name: 'syndrome', batchSize: 5 }));
    const [payload, signature] = first.nextCursor.split('.');
    const tampered = `${Buffer.from(Buffer.from(payload, 'base64url').toString().replace(/\d/, '9')).toString('base64url')}.${signature}`;
    expect(await fieldOf({ name: 'syndrome', cursor: tampered })).toEqual([{ field: 'cursor', message: expect.stringMatching(/signature/) }]);
    expect(await fieldOf({ name: 'syndrome', sortByName: true, cursor: first.nextCursor })).toEqual([
      { field: 'cursor', message: expect.stringMatching(/different query/) },
    ]);
    expect(await fieldOf({ name: 'syndromes', cursor: first.nextCursor })).toEqual([{ field: 'cursor', message: expect.stringMatching(/different query/) }]);
  });
});

const ctdFile = sharedDataFile('ctd', 'CTD_diseases.tsv.gz');
const describeFull = ctdFile ? describe : describe.skip;
if (!ctdFile) console.warn('skipping the full-CTD search tests: ../shared/data/ctd/CTD_diseases.tsv.gz is absent (set SHARED_DATA_DIR)');

/** Reading every term: a sequential scan, or a walk of a B-tree index that filters each row by similarity. */
const WHOLE_TABLE_READ = /Seq Scan on disease_terms|Index (Only )?Scan using disease_terms_(pkey|exact)/;

describeFull('disease search on the full CTD set', () => {
  let db: ScratchDatabase;
  beforeAll(async () => {
    db = await createScratchDatabase('refctd', migrations);
    await loadDiseases(db, ctdFile as string);
  }, 120_000);
  afterAll(() => db?.drop());

  /** The plan of the candidate SELECT, planned exactly as the search sends it: settings and SELECT in one message. */
  async function explain(term: string, pass: 0 | 1, withNameKeys: boolean, plannerCosts = ''): Promise<string> {
    const { settings, select } = candidateStatements(term, candidateFilter(term, pass), withNameKeys);
    const rows = await db.sequelize.query<{ 'QUERY PLAN': string }>(`${plannerCosts} ${settings}; EXPLAIN ${select}`, {
      type: QueryTypes.SELECT,
    });
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  }

  it.each([
    ['diabtes melitus', 0],
    ['alzhiemer', 0],
    ['hyperlipopoteinemia type ii', 0],
    ['psoirosis', 1],
    ['blpo syndrome', 1],
  ] as const)(
    'serves the fuzzy candidates of "%s" (pass %i) from an index, never a sequential scan',
    async (term, pass) => {
      // With name keys (an order by name) the SELECT joins the diseases.
      for (const withNameKeys of [false, true]) {
        const plan = await explain(term, pass, withNameKeys);
        // The wide pass may start from the length index instead, when the planner expects the trigram index to be loose.
        expect(plan).toMatch(pass === 0 ? /Index Scan on disease_terms_trgm/ : /Index Scan on disease_terms_(trgm|length)/);
        expect(plan).not.toMatch(WHOLE_TABLE_READ);
      }
    },
  );

  it('keeps to the index when a sequential scan looks cheaper, as it can for a query of many trigrams', async () => {
    // The planner's estimates for a long query vary with ANALYZE's sample; these costs make a scan the cheaper plan.
    const scanLooksCheap = 'SET LOCAL seq_page_cost = 0.001; SET LOCAL cpu_tuple_cost = 0.00001; SET LOCAL cpu_operator_cost = 0.00001;';
    for (const withNameKeys of [false, true]) {
      const plan = await explain('muscular dystrophy-dystroglycaanopathy (conngenital), type b, 6', 0, withNameKeys, scanLooksCheap);
      expect(plan).toMatch(/Index Scan on disease_terms_trgm/);
      expect(plan).not.toMatch(WHOLE_TABLE_READ);
    }
  });
});
