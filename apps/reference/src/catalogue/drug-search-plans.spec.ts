import { join } from 'node:path';
import fc from 'fast-check';
import { CursorCodec } from '@libs/cursor';
import { DEFAULT_SEARCH_STATEMENT_TIMEOUT_MS, migrations } from '@libs/reference-db';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { loadCatalogue } from '../default-data/load-catalogue';
import { DEFAULT_DISEASES, loadDiseases } from '../testing/disease-data';
import { explain, nodesOf, recordingSequelize, textOf, wholeTableReads, type SearchStatement } from '../testing/search-plans';
import { drugHandlers } from './drugs';
import { suggestHandlers } from './suggest';

/**
 * Drug search and type-ahead (diseases, drugs, lab tests and conditions) run
 * the disease search's statements over their vocabularies (docs/SEARCH.md):
 * each must start from a terms table's index
 * (trigram, length or prefix) and read no table whole, with the statement
 * timeout, on the plans PostgreSQL really picks, for ordinary and hostile text.
 */

/** The statements a search bounds: those sent with its settings. */
const isSearchStatement = (statement: SearchStatement) =>
  ('message' in statement ? statement.message : statement.settings[0] ?? '').startsWith('SET LOCAL statement_timeout');

const TERM_INDEX = /^(drug|disease|lab_test|condition)_terms_(trgm|length|prefix)$/;

describe('drug search and type-ahead plans on the default dataset', () => {
  let db: ScratchDatabase;
  let recording: ReturnType<typeof recordingSequelize>;
  let drugs: ReturnType<typeof drugHandlers>;
  let suggest: ReturnType<typeof suggestHandlers>;
  beforeAll(async () => {
    db = await createScratchDatabase('drugplans', migrations);
    await loadDiseases(db, DEFAULT_DISEASES);
    await db.sequelize.transaction((t) => loadCatalogue(db.sequelize, join(__dirname, '../../default-data'), t));
    await db.sequelize.query('ANALYZE');
    recording = recordingSequelize(db);
    const search = { sequelize: recording.sequelize, statementTimeoutMs: DEFAULT_SEARCH_STATEMENT_TIMEOUT_MS };
    drugs = drugHandlers(search, new CursorCodec('test-cursor-secret-0123456789'));
    suggest = suggestHandlers(search);
  }, 60_000);
  afterAll(async () => {
    await recording?.sequelize.close();
    await db?.drop();
  });

  /** Plans the search statements of a drug search and a type-ahead over every vocabulary; gives the terms tables they read. */
  async function expectIndexBacked(text: string): Promise<Set<string | undefined>> {
    await drugs.listDrugs({ name: text, cursor: '' });
    await suggest.suggest({ text, types: [], limit: 0 });
    const statements = recording.take().filter(isSearchStatement);
    expect(statements.length).toBeGreaterThanOrEqual(3);
    const read = new Set<string | undefined>();
    for (const statement of statements) {
      for (const plan of await explain(db, statement)) {
        const used = nodesOf(plan).flatMap((node) => node['Index Name'] ?? []);
        // Candidates come from a terms table's index; the names of a page (diseasesByPk) from the primary key.
        const from = textOf(statement).match(/FROM (\w+_terms) t/)?.[1];
        read.add(from);
        const index = from ? TERM_INDEX : /_pkey$/;
        expect({ text, from, wholeTableReads: wholeTableReads(plan), startsFrom: used.some((name) => index.test(name)) }).toEqual({
          text,
          from,
          wholeTableReads: [],
          startsFrom: true,
        });
      }
    }
    return read;
  }

  it.each(['ibuprofn', 'metformin hydrochloride', 'me', 'glucoph', 'amoxicilin clavulanic', 'a%_\\b'])('serves "%s" from the indexes', (text) =>
    expectIndexBacked(text),
  );

  it.each(['alt', 'haemoglob', 'alzheimers d', 'hypertensoin'])('serves "%s" from the indexes of every vocabulary, lab tests and conditions too', async (text) => {
    const read = await expectIndexBacked(text);
    expect(['disease_terms', 'drug_terms', 'lab_test_terms', 'condition_terms'].filter((table) => !read.has(table))).toEqual([]);
  });

  it('serves random 200-letter and random many-word queries from the indexes', async () => {
    const letters = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz');
    const word = (min: number, max: number) => fc.array(letters, { minLength: min, maxLength: max }).map((a) => a.join(''));
    const hostile = fc.oneof(word(200, 200), fc.array(word(1, 12), { minLength: 2, maxLength: 100 }).map((w) => w.join(' ').slice(0, 200).trim()));
    await fc.assert(fc.asyncProperty(hostile, async (text) => void (await expectIndexBacked(text))), { seed: 1, numRuns: 5, endOnFailure: true });
  }, 60_000);
});
