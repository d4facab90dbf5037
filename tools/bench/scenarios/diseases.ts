import { Client } from 'pg';
import { bearer, uncached, type BenchContext, type Scenario } from '../context';
import { cpuVerdict } from '../cpu/per-request';
import { zipfSample } from '../random';
import { DISEASE_TERMS } from '@libs/reference-db';
import { misspell } from '../../search-quality/typos';
import type { RequestSpec } from '../load/load-spec';
import { realisticSearches } from './realistic-searches';

const QUERIES = 2_000;

/** A fixed, well-spread sample of disease names from the run's reference database. */
export async function diseaseNames(context: BenchContext, count: number): Promise<string[]> {
  const client = new Client({ connectionString: context.databaseUrl('reference') });
  await client.connect();
  try {
    // md5 order: the same sample on every run.
    const { rows } = await client.query<{ name: string }>('SELECT name FROM diseases ORDER BY md5(disease_id) LIMIT $1', [
      count,
    ]);
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

const searches = (context: BenchContext, terms: string[], options: { exact: boolean; cached?: boolean }): RequestSpec[] =>
  terms.map((term) => ({
    path: `/api/v1/diseases?n=${encodeURIComponent(term)}&e=${options.exact}&r=false`,
    headers: options.cached ? bearer(context.keys.reader) : uncached(context.keys.reader),
  }));

/**
 * The same requests through the whole system and against the single-process
 * Express + pg floor. A misspelling may be nearer no disease at all: its 404 is
 * a right answer, and both targets give it.
 */
export async function againstBaseline(context: BenchContext, scenario: string, requests: RequestSpec[]) {
  const options = { expected: [404] };
  const system = context.record({
    scenario,
    target: 'system',
    result: await context.load(context.gatewayUrl, requests, options),
  });
  const baseline = context.record({
    scenario,
    target: 'express+pg',
    result: await context.load(context.expressPg.url, requests, options),
  });
  return { system, baseline };
}

/** How many of a run's answers were 404: for realistic queries, each a concept that was wanted and not found. */
export const notFound = (result: { statusCodes: Record<string, number> }) => result.statusCodes['404'] ?? 0;

/**
 * Realistic misspellings of CTD names and synonyms (realistic-searches.ts): every query has a disease it was typed
 * for, so a 404 is a miss, counted in a note, not a cheap answer.
 */
export const fuzzySearch: Scenario = async (context) => {
  const queries = (await realisticSearches(context, DISEASE_TERMS, QUERIES)).map((query) => query.text);
  const { system, baseline } = await againstBaseline(context, 'fuzzy disease search', searches(context, queries, { exact: false }));
  context.judge({
    scenario: 'fuzzy disease search',
    figure: `${(system.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)}× baseline req/s`,
    target: '≥ 0.85× baseline req/s',
    met: system.requestsPerSecond >= 0.85 * baseline.requestsPerSecond,
  });
  context.judge({
    scenario: 'fuzzy disease search',
    figure: `p99 ${(system.p99Ms / Math.max(baseline.p99Ms, 1)).toFixed(2)}× baseline`,
    target: 'p99 ≤ 2× baseline',
    met: system.p99Ms <= 2 * Math.max(baseline.p99Ms, 1),
  });
  // One client alone: the latency a user sees, not the queue of 32 connections on 2 cores.
  const alone = context.record({
    scenario: 'fuzzy disease search, 1 connection',
    target: 'system',
    result: await context.load(context.gatewayUrl, searches(context, queries, { exact: false }), { connections: 1, expected: [404] }),
  });
  context.note('fuzzy disease search, 1 connection: 404s (wanted disease not found)', notFound(alone), 'answers');
  context.judge({
    scenario: 'fuzzy disease search, 1 connection',
    figure: `p50 ${alone.p50Ms} ms, p99 ${alone.p99Ms} ms`,
    target: 'p50 ≤ 5 ms, p99 ≤ 25 ms (full CTD import)',
    met: alone.p50Ms <= 5 && alone.p99Ms <= 25,
  });
};

export const fuzzySearchZipf: Scenario = async (context) => {
  const distinct = (await diseaseNames(context, QUERIES / 2)).map((name) => misspell(name, context.random));
  const mix = zipfSample(distinct, 20_000, context.random);
  const { system, baseline } = await againstBaseline(context, 'fuzzy search, Zipf mix', searches(context, mix, { exact: false, cached: true }));
  context.judge({
    scenario: 'fuzzy search, Zipf mix',
    figure: `${(system.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)}× baseline req/s`,
    target: '≥ 1.5× baseline req/s',
    met: system.requestsPerSecond >= 1.5 * baseline.requestsPerSecond,
  });
};

export const exactSearch: Scenario = async (context) => {
  const names = await diseaseNames(context, QUERIES);
  const { system, baseline } = await againstBaseline(context, 'exact disease search', searches(context, names, { exact: true }));
  context.judge({
    scenario: 'exact disease search',
    figure: `${(system.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)}× baseline req/s`,
    target: '≥ 0.50× baseline req/s',
    met: system.requestsPerSecond >= 0.5 * baseline.requestsPerSecond,
  });
  context.judge(cpuVerdict('exact disease search', system, 'gateway', 0.35));
  context.judge(cpuVerdict('exact disease search', system, 'reference', 0.3));
};

/** Walks to page 400 (with a batch small enough that page 400 exists) and compares it with page 1. */
export const deepPage: Scenario = async (context) => {
  const client = new Client({ connectionString: context.databaseUrl('reference') });
  await client.connect();
  const { rows } = await client.query<{ count: string }>('SELECT count(*) FROM diseases');
  await client.end();
  const batch = Math.max(1, Math.min(25, Math.floor(Number(rows[0].count) / 401)));
  const headers = uncached(context.keys.reader);
  const first = `/api/v1/diseases?r=false&b=${batch}`;
  let path = first;
  for (let page = 1; page < 400; page++) {
    const response = await fetch(`${context.gatewayUrl}${path}`, { headers });
    const body = (await response.json()) as { nextCursor?: string };
    if (!body.nextCursor) throw new Error(`the disease walk ended at page ${page}`);
    path = `${first}&cursor=${encodeURIComponent(body.nextCursor)}`;
  }
  const run = (p: string) => context.load(context.gatewayUrl, [{ path: p, headers }]);
  const pageOne = context.record({ scenario: 'disease walk, page 1', target: 'system', result: await run(first) });
  const page400 = context.record({ scenario: 'disease walk, page 400', target: 'system', result: await run(path) });
  const ratio = pageOne.requestsPerSecond / page400.requestsPerSecond;
  context.judge({
    scenario: 'disease walk, page 400',
    figure: `${ratio.toFixed(2)}× the time of page 1 (b=${batch})`,
    target: '≤ 1.5× page 1',
    met: ratio <= 1.5,
  });
};
