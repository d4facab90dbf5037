import fc from 'fast-check';
import { CursorCodec } from '@libs/cursor';
import { referenceV1 } from '@libs/contracts';
import { DEFAULT_SEARCH_STATEMENT_TIMEOUT_MS, MAX_QUERY_WORDS, MAX_WORD_LENGTH, migrations } from '@libs/reference-db';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { CTD_ABSENT_NOTE, CTD_DISEASES, DEFAULT_DISEASES, loadDiseases } from '../testing/disease-data';
import { diseaseHandlers } from './disease-handlers';
import { searchRequest } from './search-request.fixture';
import { explain, nodesOf, recordingSequelize, textOf, wholeTableReads, type SearchStatement } from '../testing/search-plans';

/**
 * Every disease search statement must be served by an index whatever the
 * input, on the plans PostgreSQL really picks: the search runs as the service
 * runs it, every query it sends to pg is recorded, and each is planned again
 * with EXPLAIN (FORMAT JSON), settings and all: a simple-query message as it
 * was sent, a prepared statement with its values both as a custom plan and as
 * the generic plan PostgreSQL switches to after five runs.
 */

/** The index a statement must start from: a trigram one for candidates (or, in the wide pass, the length index), else the term or primary key index. */
function startingIndex(message: string): RegExp {
  if (message.includes('FROM disease_terms t')) return /^disease_terms_(trgm|length)$/;
  return message.includes('FROM disease_terms WHERE term =') ? /^disease_terms_prefix$/ : /^diseases_pkey$/;
}

interface RecordedSearch {
  search: ReturnType<typeof diseaseHandlers>['searchDiseases'];
  /** The search statements sent since the last call of take(). */
  take(): SearchStatement[];
  close(): Promise<void>;
}

/** The service's disease search on its own connection, recording every query it sends to pg. */
function recordedSearch(db: ScratchDatabase): RecordedSearch {
  const { sequelize, take } = recordingSequelize(db);
  const handlers = diseaseHandlers({ sequelize, statementTimeoutMs: DEFAULT_SEARCH_STATEMENT_TIMEOUT_MS }, new CursorCodec('test-cursor-secret-0123456789'));
  return { search: handlers.searchDiseases, take, close: () => sequelize.close() };
}

/** Every way to search by name: fuzzy by relevance and by name both ways, exact by id and by name. */
const SEARCH_KINDS: Partial<referenceV1.SearchDiseasesRequest>[] = [
  {},
  { sortByName: true },
  { sortByName: true, order: referenceV1.SortOrder.SORT_ORDER_DESC },
  { exact: true },
  { exact: true, sortByName: true },
];

/**
 * Searches for the text in every way and plans each statement sent: each must start from its index and read
 * no table whole, and each must carry the statement timeout. Returns every statement sent.
 */
async function expectIndexBacked(db: ScratchDatabase, recorded: RecordedSearch, text: string, plannerCosts: string[] = []) {
  const sent: SearchStatement[] = [];
  for (const kind of SEARCH_KINDS) {
    await recorded.search(searchRequest({ ...kind, name: text }));
    const statements = recorded.take();
    expect(statements.length).toBeGreaterThan(0);
    sent.push(...statements);
    for (const statement of statements) {
      expect('message' in statement ? statement.message : statement.settings[0]).toMatch(/^SET LOCAL statement_timeout = \d+(;|$)/);
      const index = startingIndex(textOf(statement));
      for (const plan of await explain(db, statement, plannerCosts)) {
        const used = nodesOf(plan).flatMap((node) => node['Index Name'] ?? []);
        expect({ text, kind, wholeTableReads: wholeTableReads(plan), startsFrom: used.some((name) => index.test(name)) }).toEqual({
          text,
          kind,
          wholeTableReads: [],
          startsFrom: true,
        });
      }
    }
  }
  return sent;
}

const letters = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz');
const randomWord = (minLength: number, maxLength: number) => fc.array(letters, { minLength, maxLength }).map((a) => a.join(''));
/** The noisy neighbour's worst cases: one random 200-letter word, or random words up to the 200-character limit. */
const hostileQueries = fc.oneof(
  randomWord(200, 200),
  fc.array(randomWord(1, 12), { minLength: 2, maxLength: 100 }).map((words) => words.join(' ').slice(0, 200).trim()),
);

/** The property, with a few seeds: random 200-letter and random many-word queries are searched from the indexes. */
function itServesHostileQueriesFromIndexes(database: () => ScratchDatabase) {
  let recorded: RecordedSearch;
  beforeAll(() => {
    recorded = recordedSearch(database());
  });
  afterAll(() => recorded?.close());

  it.each([1, 2, 3])('serves random 200-letter and random many-word queries from the indexes (fast-check seed %i)', async (seed) => {
    await fc.assert(
      fc.asyncProperty(hostileQueries, async (text) => {
        await expectIndexBacked(database(), recorded, text);
      }),
      // A failure is reported as found: shrinking would replay many slow plans.
      { seed, numRuns: 5, endOnFailure: true },
    );
  }, 60_000);

  return () => recorded;
}

describe('disease search plans on the default dataset', () => {
  let db: ScratchDatabase;
  beforeAll(async () => {
    db = await createScratchDatabase('refplans', migrations);
    await loadDiseases(db, DEFAULT_DISEASES);
  }, 60_000);
  const recorded = itServesHostileQueriesFromIndexes(() => db);
  afterAll(() => db?.drop()); // after the recording connection closes

  it('plans the next pages of every disease from the index, after the cursor', async () => {
    for (const kind of [{}, { sortByName: true }, { sortByName: true, order: referenceV1.SortOrder.SORT_ORDER_DESC }]) {
      const { nextCursor } = await recorded().search(searchRequest({ ...kind, batchSize: 5 }));
      recorded().take();
      await recorded().search(searchRequest({ ...kind, batchSize: 5, cursor: nextCursor }));
      const [statement] = recorded().take();
      expect(textOf(statement)).toMatch(/WHERE .*d\.id\) [<>] \(\$1::text, \$2::bigint\)|WHERE d\.id > \$1::bigint/);
      for (const plan of await explain(db, statement)) {
        const used = nodesOf(plan).flatMap((node) => node['Index Name'] ?? []);
        expect({ kind, wholeTableReads: wholeTableReads(plan), used }).toEqual({ kind, wholeTableReads: [], used: [expect.stringMatching(/^diseases_/)] });
      }
    }
  });

  it(`sends the database at most ${MAX_QUERY_WORDS} words of a query, each at most ${MAX_WORD_LENGTH} letters`, async () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
    for (const [text, searched] of [
      ['z'.repeat(200), 'z'.repeat(MAX_WORD_LENGTH)],
      [words.join(' '), words.slice(0, MAX_QUERY_WORDS).join(' ')],
    ]) {
      for (const kind of [{}, { sortByName: true }]) {
        await recorded().search(searchRequest({ ...kind, name: text }));
        const candidateMessages = recorded()
          .take()
          .map(textOf)
          .filter((message) => message.includes('FROM disease_terms t'));
        expect(candidateMessages.length).toBeGreaterThan(0);
        for (const message of candidateMessages) {
          expect(message).toContain(`'${searched}'`);
          expect(message).not.toContain(text);
        }
      }
    }
  });
});

const describeFull = CTD_DISEASES ? describe : describe.skip;
if (!CTD_DISEASES) console.warn(CTD_ABSENT_NOTE);

describeFull('disease search plans on the full CTD set', () => {
  let db: ScratchDatabase;
  beforeAll(async () => {
    db = await createScratchDatabase('refctd', migrations);
    await loadDiseases(db, CTD_DISEASES as string);
  }, 120_000);
  const recorded = itServesHostileQueriesFromIndexes(() => db);
  afterAll(() => db?.drop()); // after the recording connection closes

  const windowed = (statement: SearchStatement) => textOf(statement).includes('length(t.term) BETWEEN');
  const loosePass = (statement: SearchStatement) => textOf(statement).includes('FROM disease_terms t') && !windowed(statement);

  it.each(['diabtes melitus', 'alzhiemer', 'hyperlipopoteinemia type ii', 'psoirosis', 'blpo syndrome'])(
    'serves "%s" from the indexes (the near pass, and the loose and wide ones where it finds no whole term within the typos)',
    (term) => expectIndexBacked(db, recorded(), term),
  );

  // Only the near pass's length window and bound find these (the loose pass finds a part match, "polydipsia, psychogenic", or nothing).
  it.each(['pylydpsia', 'ksull neoplsam'])('serves "%s" from the indexes in the near pass alone', async (term) => {
    const sent = await expectIndexBacked(db, recorded(), term);
    expect({ windowed: sent.filter(windowed).length > 0, loose: sent.filter(loosePass).length }).toEqual({ windowed: true, loose: 0 });
  });

  it('falls back to the loose and wide passes, from the indexes, when nothing is within the typos', async () => {
    const sent = await expectIndexBacked(db, recorded(), 'qxzv wkjh');
    expect(sent.filter(loosePass).length).toBeGreaterThan(0);
  });

  it('keeps to the index when a sequential scan looks cheaper, as it can for a query of many trigrams', async () => {
    // The planner's estimates for a long query vary with ANALYZE's sample; these costs make a scan the cheaper plan.
    const scanLooksCheap = ['SET LOCAL seq_page_cost = 0.001', 'SET LOCAL cpu_tuple_cost = 0.00001', 'SET LOCAL cpu_operator_cost = 0.00001'];
    await expectIndexBacked(db, recorded(), 'muscular dystrophy-dystroglycaanopathy (conngenital), type b, 6', scanLooksCheap);
  });
});
