import fc from 'fast-check';
import { QueryTypes } from 'sequelize';
import {
  DEFAULT_SEARCH_STATEMENT_TIMEOUT_MS,
  DISEASE_TERMS,
  fuzzyPage,
  migrations,
  TermTables,
  upsertDiseases,
  VOCABULARIES,
  type FuzzyOrder,
  type SearchDb,
} from '@libs/reference-db';
import { createScratchDatabase, diseaseRecord, type ScratchDatabase } from '@libs/testing';
import { DEFAULT_DISEASES, loadDiseases } from '../testing/disease-data';

/** An edit of a text: at a fraction of its length, drop `drop` characters and put `insert` there. */
interface Edit {
  at: number;
  drop: number;
  insert: string;
}
const applyEdit = (text: string, { at, drop, insert }: Edit) => {
  const chars = [...text];
  const index = Math.floor(at * chars.length);
  return [...chars.slice(0, index), insert, ...chars.slice(index + drop)].join('');
};

// Letters as typed, and what pg_trgm and JavaScript could read differently: accents, digits, punctuation, a letter
// outside the BMP, CJK, a combining mark.
const character = fc.oneof(
  { arbitrary: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), weight: 12 },
  { arbitrary: fc.constantFrom(...'éüñø0123456789 ,-\'()/', '𝒜', '漢', '\u0301'), weight: 2 },
);
const edit = fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), drop: fc.integer({ min: 0, max: 2 }), insert: fc.string({ unit: character, maxLength: 2 }) });

describe('fuzzy search with the terms in memory', () => {
  let db: ScratchDatabase;
  let terms: string[];
  let inDatabase: SearchDb;
  let inMemory: SearchDb;

  beforeAll(async () => {
    db = await createScratchDatabase('nearpass', migrations);
    await loadDiseases(db, DEFAULT_DISEASES);
    terms = (await db.sequelize.query<{ term: string }>('SELECT term FROM disease_terms ORDER BY term', { type: QueryTypes.SELECT })).map((row) => row.term);
    inDatabase = { sequelize: db.sequelize, statementTimeoutMs: DEFAULT_SEARCH_STATEMENT_TIMEOUT_MS };
    inMemory = { ...inDatabase, terms: new TermTables(db.sequelize, VOCABULARIES) };
    // Built first: until it is, the near pass runs in the database (TermTables.ifCurrent).
    await inMemory.terms?.current(['diseases']);
  });
  afterAll(() => db?.drop());

  /** The first two pages of a walk, as each engine gives them. */
  async function walk(search: SearchDb, query: string, order: FuzzyOrder) {
    const first = await fuzzyPage(search, DISEASE_TERMS, query, order, 10);
    return { first, second: first.next && (await fuzzyPage(search, DISEASE_TERMS, query, order, 10, first.next)) };
  }

  it('gives the pages the trigram index gives, for misspellings of real terms and for other text', async () => {
    const misspelt = fc
      .tuple(fc.nat(), fc.array(edit, { minLength: 1, maxLength: 2 }))
      .map(([index, edits]) => edits.reduce(applyEdit, terms[index % terms.length]));
    const query = fc.oneof({ arbitrary: misspelt, weight: 4 }, { arbitrary: fc.string({ unit: character, minLength: 1, maxLength: 30 }), weight: 1 });
    await fc.assert(
      fc.asyncProperty(query, fc.constantFrom<FuzzyOrder>('relevance', 'name-asc', 'name-desc'), async (text, order) => {
        expect(await walk(inMemory, text, order)).toEqual(await walk(inDatabase, text, order));
      }),
      { numRuns: 400 },
    );
  });

  it('answers from a disease as soon as it is committed: from the index while the terms are rebuilt, then from them', async () => {
    const search = () => fuzzyPage(inMemory, DISEASE_TERMS, 'zebra fevr', 'relevance', 5);
    const before = await search();
    const disease = diseaseRecord({ diseaseName: 'Zebra Fever', diseaseId: 'MESH:Z999001' });
    await db.sequelize.transaction((t) => upsertDiseases(db.sequelize, [disease], t));
    const expected = (await fuzzyPage(inDatabase, DISEASE_TERMS, 'zebra fevr', 'relevance', 5)).pks;
    expect(expected).toHaveLength(before.pks.length + 1);
    expect((await search()).pks).toEqual(expected);
    const [rebuilt] = (await inMemory.terms?.current(['diseases'])) ?? [];
    expect(await inMemory.terms?.ifCurrent('diseases')).toBe(rebuilt);
    expect((await search()).pks).toEqual(expected);
  });
});
