import { Client } from 'pg';
import { REFERENCE_LIMITS } from '@libs/contracts';
import { uncached, type BenchContext, type Scenario } from '../context';
import { oneTypo } from '../../search-quality/typos';
import { TYPO_WITHIN } from '../../search-quality/query-sets';

const NAMES_PER_VOCABULARY = 500;

/** A fixed sample of the names of every vocabulary type-ahead completes from (md5 order: the same on every run). */
async function vocabularyNames(context: BenchContext): Promise<string[]> {
  const client = new Client({ connectionString: context.databaseUrl('reference') });
  await client.connect();
  try {
    const names: string[] = [];
    for (const table of ['diseases', 'drugs', 'lab_tests', 'conditions']) {
      const { rows } = await client.query<{ name: string }>(`SELECT name FROM ${table} ORDER BY md5(name) LIMIT $1`, [NAMES_PER_VOCABULARY]);
      names.push(...rows.map((row) => row.name));
    }
    return names;
  } finally {
    await client.end();
  }
}

/**
 * What a user has typed of a name when the list is asked for: its first 2 to
 * 10 characters, half the time with one typo in the first 6 (the quality
 * measure's typo, docs/SEARCH.md "Type-ahead quality").
 */
function partialWords(context: BenchContext, names: string[]): string[] {
  return names.flatMap((name) => {
    const typed = name.slice(0, 2 + Math.floor(context.random() * 9)).trimEnd();
    const withTypo = typed.length > 3 && context.random() < 0.5 ? oneTypo(typed, context.random, TYPO_WITHIN).trimEnd() : typed;
    return [...withTypo.trim()].length >= REFERENCE_LIMITS.suggestMinLength ? [withTypo] : [];
  });
}

/**
 * Type-ahead (GET /api/v1/suggest, every vocabulary, the default 10) on
 * partial words of real names, at 1 connection (what one user sees: judged
 * against the p50 ≤ 3 ms and p99 ≤ 15 ms) and at the run's connections.
 */
export const typeAhead: Scenario = async (context) => {
  const words = partialWords(context, await vocabularyNames(context));
  context.note('type-ahead partial words', words.length, 'queries');
  const requests = words.map((q) => ({ path: `/api/v1/suggest?q=${encodeURIComponent(q)}`, headers: uncached(context.keys.reader) }));
  const alone = context.record({
    scenario: 'type-ahead, 1 connection',
    target: 'system',
    result: await context.load(context.gatewayUrl, requests, { connections: 1 }),
  });
  context.judge({ scenario: 'type-ahead, 1 connection', figure: `p50 ${alone.p50Ms} ms`, target: 'p50 ≤ 3 ms (full imports)', met: alone.p50Ms <= 3 });
  context.judge({ scenario: 'type-ahead, 1 connection', figure: `p99 ${alone.p99Ms} ms`, target: 'p99 ≤ 15 ms (full imports)', met: alone.p99Ms <= 15 });
  context.record({
    scenario: `type-ahead, ${context.connections} connections`,
    target: 'system',
    result: await context.load(context.gatewayUrl, requests),
  });
};
