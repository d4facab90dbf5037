import { join } from 'node:path';
import fc from 'fast-check';
import { CursorCodec } from '@libs/cursor';
import { DEFAULT_SEARCH_STATEMENT_TIMEOUT_MS, migrations } from '@libs/reference-db';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { loadCatalogue } from '../default-data/load-catalogue';
import { DEFAULT_DISEASES, loadDiseases } from '../testing/disease-data';
import { explain, nodesOf, recordingSequelize, textOf, wholeTableReads, type SearchStatement } from '../testing/search-plans';
import { drugHandlers } from './drugs';

/**
 * Drug search runs the disease search's statements over its vocabulary
 * (docs/SEARCH.md): each must start from a terms table's index (trigram,
 * length or prefix) and read no table whole, with the statement timeout, on
 * the plans PostgreSQL really picks, for ordinary and hostile text. (Type-ahead
 * answers from the terms in memory: term-tables.spec.ts.)
 */

/** The statements a search bounds: those sent with its settings. */
const isSearchStatement = (statement: SearchStatement) =>
  ('message' in statement ? statement.message : statement.settings[0] ?? '').startsWith('SET LOCAL statement_timeout');

const TERM_INDEX = /^drug_terms_(trgm|length|prefix)$/;

describe('drug search plans on the default dataset', () => {
  let db: ScratchDatabase;
  let recording: ReturnType<typeof recordingSequelize>;
  let drugs: ReturnType<typeof drugHandlers>;
  beforeAll(async () => {
    db = await createScratchDatabase('drugplans', migrations);
    await loadDiseases(db, DEFAULT_DISEASES);
    await db.sequelize.transaction((t) => loadCatalogue(db.sequelize, join(__dirname, '../../default-data'), t));
    await db.sequelize.query('ANALYZE');
    recording = recordingSequelize(db);
    const search = { sequelize: recording.sequelize, statementTimeoutMs: DEFAULT_SEARCH_STATEMENT_TIMEOUT_MS };
    drugs = drugHandlers(search, new CursorCodec('test-cursor-secret-0123456789'));
  }, 60_000);
  afterAll(async () => {
    await recording?.sequelize.close();
    await db?.drop();
  });

  /** Plans the search statements of a drug search. */
  async function expectIndexBacked(text: string): Promise<void> {
    await drugs.listDrugs({ name: text, cursor: '' });
    const statements = recording.take().filter(isSearchStatement);
    expect(statements.length).toBeGreaterThanOrEqual(1);
    for (const statement of statements) {
      for (const plan of await explain(db, statement)) {
        const used = nodesOf(plan).flatMap((node) => node['Index Name'] ?? []);
        // Candidates come from a terms table's index; the names of a page (diseasesByPk) from the primary key.
        const from = textOf(statement).match(/FROM (\w+_terms) t/)?.[1];
        const index = from ? TERM_INDEX : /_pkey$/;
        expect({ text, from, wholeTableReads: wholeTableReads(plan), startsFrom: used.some((name) => index.test(name)) }).toEqual({
          text,
          from,
          wholeTableReads: [],
          startsFrom: true,
        });
      }
    }
  }

  it.each(['ibuprofn', 'metformin hydrochloride', 'me', 'glucoph', 'amoxicilin clavulanic', 'a%_\\b'])('serves "%s" from the indexes', (text) =>
    expectIndexBacked(text),
  );

  it('serves random 200-letter and random many-word queries from the indexes', async () => {
    const letters = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz');
    const word = (min: number, max: number) => fc.array(letters, { minLength: min, maxLength: max }).map((a) => a.join(''));
    const hostile = fc.oneof(word(200, 200), fc.array(word(1, 12), { minLength: 2, maxLength: 100 }).map((w) => w.join(' ').slice(0, 200).trim()));
    await fc.assert(fc.asyncProperty(hostile, async (text) => void (await expectIndexBacked(text))), { seed: 1, numRuns: 5, endOnFailure: true });
  }, 60_000);
});
