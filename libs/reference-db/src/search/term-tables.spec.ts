import { QueryTypes } from 'sequelize';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { migrations } from '../migrations';
import { drugSourceId } from '../source-ids';
import { upsertDrugs } from '../writers/drug-writer';
import { suggestMatches } from './suggest';
import { DRUG_TERMS } from './term-index';
import { TermTables } from './term-tables';
import { TrigramSimilarity, trigramsOf } from './trigrams';

describe('type-ahead terms in memory, against the database', () => {
  let db: ScratchDatabase;
  let tables: TermTables<'drugs'>;
  const writeDrugs = (names: string[]) =>
    db.sequelize.transaction((transaction) =>
      upsertDrugs(
        db.sequelize,
        names.map((name) => ({ sourceId: drugSourceId({ name }), name })),
        transaction,
      ),
    );
  const suggested = async (query: string) => {
    const [table] = await tables.current(['drugs']);
    return suggestMatches(table, query, 5).map((match) => table.nameOf(match.pk));
  };
  beforeAll(async () => {
    db = await createScratchDatabase('termtables', migrations);
    await writeDrugs(['Metformin hydrochloride', 'Metoprolol', 'Ibuprofen']);
    tables = new TermTables(db.sequelize, { drugs: DRUG_TERMS });
  });
  afterAll(() => db?.drop());

  it('build a vocabulary once, and keep it while its version stays', async () => {
    const [[first], [second]] = await Promise.all([tables.current(['drugs']), tables.current(['drugs'])]);
    expect(first).toBe(second);
    expect((await tables.current(['drugs']))[0]).toBe(first);
    expect(await suggested('metfromin')).toEqual(['Metformin hydrochloride']);
  });

  it('answer from a write as soon as it is committed, concurrent requests sharing one rebuild', async () => {
    const [before] = await tables.current(['drugs']);
    await writeDrugs(['Zorvatinib']);
    const [[first], [second]] = await Promise.all([tables.current(['drugs']), tables.current(['drugs'])]);
    expect(first).not.toBe(before);
    expect(first).toBe(second);
    expect(await suggested('zorva')).toEqual(['Zorvatinib']);
  });

  it('rebuild after a write to the terms alone (migration 0012)', async () => {
    await db.sequelize.query("DELETE FROM drug_terms WHERE term LIKE 'zorvat%'");
    expect(await suggested('zorva')).toEqual([]);
  });

  it('rank by the similarity pg_trgm would give (a float4: pg sends it rounded to its shortest form)', async () => {
    const query = 'metfromin hydro';
    const rows = await db.sequelize.query<{ term: string; similarity: number }>('SELECT term, similarity(term, ?) AS similarity FROM drug_terms', {
      type: QueryTypes.SELECT,
      replacements: [query],
    });
    expect(rows.length).toBeGreaterThan(3);
    for (const { term, similarity } of rows) {
      expect({ term, similarity: new TrigramSimilarity(query).of(term, trigramsOf(term).length) }).toEqual({ term, similarity: Math.fround(similarity) });
    }
  });
});
