import { QueryTypes, type Sequelize } from 'sequelize';
import { migrations } from '@libs/reference-db';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { CTD_ABSENT_NOTE, CTD_DISEASES, loadDiseases } from '../testing/disease-data';
import { nodesOf, type PlanNode } from '../testing/search-plans';
import { valueSetHandlers } from './value-set-expansion';

/**
 * ValueSet/$expand of the diseases with a filter (docs/SEARCH.md, "FHIR
 * $expand filter"), on the full CTD set, on the plans PostgreSQL really
 * picks: the total and the page are both read through indexes, the matching
 * terms by the prefix B-tree and the trigram index (or, for a common prefix,
 * the page by the name order, checking each disease's terms by its key until
 * the page is full), never a sequential scan.
 */

/** The indexes an $expand of the diseases may read. */
const EXPAND_INDEXES = new Set(['disease_terms_prefix', 'disease_terms_trgm', 'disease_terms_pkey', 'diseases_pkey', 'diseases_name_order']);

interface Sent {
  sql: string;
  bind: unknown[];
}

/** The reference's connection, recording each statement $expand sends and its values. */
function recording(sequelize: Sequelize): { sequelize: Sequelize; take(): Sent[] } {
  const sent: Sent[] = [];
  const query = sequelize.query.bind(sequelize) as (sql: string, options: { bind?: unknown[] }) => Promise<unknown>;
  const recorder = new Proxy(sequelize, {
    get: (target, key) =>
      key === 'query'
        ? (sql: string, options: { bind?: unknown[] }) => {
            sent.push({ sql, bind: options.bind ?? [] });
            return query(sql, options);
          }
        : Reflect.get(target, key),
  });
  return { sequelize: recorder, take: () => sent.splice(0) };
}

const describeFull = CTD_DISEASES ? describe : describe.skip;
if (!CTD_DISEASES) console.warn(CTD_ABSENT_NOTE);

describeFull('$expand plans of the diseases on the full CTD set', () => {
  let db: ScratchDatabase;
  beforeAll(async () => {
    db = await createScratchDatabase('vsplans', migrations);
    await loadDiseases(db, CTD_DISEASES as string);
    await db.sequelize.query('ANALYZE');
  }, 120_000);
  afterAll(() => db?.drop());

  const planOf = async ({ sql, bind }: Sent) =>
    (await db.sequelize.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (FORMAT JSON) ${sql}`, { bind, type: QueryTypes.SELECT }))[0][
      'QUERY PLAN'
    ][0].Plan;

  // Common and rare prefixes, a later word's prefix, a whole word, and an offset deep into the matches.
  it.each([
    ['dia', 0],
    ['syn', 0],
    ['syndrome', 9_980],
    ['zygo', 0],
    ['alzheimer', 0],
    ['type 2', 0],
  ])('reads "%s" (offset %d) through indexes, never a whole table', async (filter, offset) => {
    const { sequelize, take } = recording(db.sequelize);
    const expansion = await valueSetHandlers(sequelize).expandValueSet({ valueSet: 'diseases', filter, offset, count: 20 });
    expect(expansion.total).toBeGreaterThan(0);
    const statements = take();
    expect(statements).toHaveLength(2);
    for (const statement of statements) {
      const nodes = nodesOf(await planOf(statement));
      const indexes = nodes.flatMap((node) => node['Index Name'] ?? []);
      expect({
        filter,
        seqScans: nodes.filter((node) => node['Node Type'] === 'Seq Scan').map((node) => node['Relation Name']),
        readsIndexes: indexes.length > 0,
        others: indexes.filter((name) => !EXPAND_INDEXES.has(name)),
      }).toEqual({ filter, seqScans: [], readsIndexes: true, others: [] });
    }
    // The total reads the matching terms by their indexes: the prefix B-tree or the trigram index.
    const total = nodesOf(await planOf(statements[0])).flatMap((node) => node['Index Name'] ?? []);
    expect(total.some((name) => /^disease_terms_(prefix|trgm)$/.test(name))).toBe(true);
  }, 60_000);
});
