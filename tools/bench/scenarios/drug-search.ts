import { DRUG_TERMS } from '@libs/reference-db';
import { uncached, type BenchContext, type Scenario } from '../context';
import type { RequestSpec } from '../load/load-spec';
import { againstBaseline, notFound } from './diseases';
import { realisticSearches } from './realistic-searches';

const QUERIES = 2_000;

const searches = (context: BenchContext, terms: string[]): RequestSpec[] =>
  terms.map((term) => ({ path: `/api/v1/drugs?n=${encodeURIComponent(term)}`, headers: uncached(context.keys.reader) }));

/**
 * Drug search (one ranked engine: an exact name is the nearest match) through the system and the Express + pg
 * floor, which runs the same search and reads the same rows (tools/bench/baselines/express-pg.ts): realistic
 * misspellings of names, brands and ingredients, then the terms they were typed from, spelt right.
 */
export const drugSearch: Scenario = async (context) => {
  const queries = await realisticSearches(context, DRUG_TERMS, QUERIES);
  for (const [scenario, terms] of [
    ['fuzzy drug search', queries.map((query) => query.text)],
    ['exact drug search', queries.map((query) => query.original)],
  ] as const) {
    const { system, baseline } = await againstBaseline(context, scenario, searches(context, [...terms]));
    context.note(`${scenario}: 404s (wanted drug not found)`, notFound(system), 'answers');
    context.judge({
      scenario,
      figure: `${(system.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)}× baseline req/s`,
      target: '≥ 0.85× baseline req/s',
      met: system.requestsPerSecond >= 0.85 * baseline.requestsPerSecond,
    });
  }
};
