import { getRetrying, JsonClient } from './http-client';
import type { QualityQuery } from './query-sets';
import { percentile } from './percentile';

export interface QualityReport {
  queries: number;
  recallAt1: number;
  recallAt5: number;
  medianMs: number;
  p95Ms: number;
  /** Every query's latency (of the answer that counted), ascending. */
  latenciesMs: number[];
  /** Searches refused as too costly at that moment (429) and sent again: a busy machine, not a miss. */
  retried: number;
  misses: { query: QualityQuery; rank: number }[];
}

/**
 * Sends each query to GET /api/v1/diseases (5 a page), one at a time, and scores where the intended disease came.
 * A 429 (the search was stopped because the machine was busy) is retried after its Retry-After, and counted.
 */
export async function measure(gatewayUrl: string, apiKey: string, queries: QualityQuery[]): Promise<QualityReport> {
  const latencies: number[] = [];
  const misses: QualityReport['misses'] = [];
  let first = 0;
  let topFive = 0;
  let retried = 0;
  const client = new JsonClient();
  // no-cache: the gateway's reference cache must not flatter the latency of a repeated query.
  const headers = { authorization: `Bearer ${apiKey}`, 'cache-control': 'no-cache' };
  const url = (query: QualityQuery) => `${gatewayUrl}/api/v1/diseases?b=5&n=${encodeURIComponent(query.text)}`;
  try {
    for (const query of queries) {
      const response = await getRetrying(client, url(query), headers);
      retried += response.retried;
      if (response.status !== 200 && response.status !== 404) {
        throw new Error(`GET /api/v1/diseases?n=${query.text} answered ${response.status}: ${JSON.stringify(response.body)}`);
      }
      latencies.push(response.elapsedMs);
      const { diseases = [] } = response.body as { diseases?: { Disease_ID: string }[] };
      const rank = diseases.findIndex((disease) => disease.Disease_ID === query.diseaseId);
      if (rank === 0) first += 1;
      if (rank >= 0) topFive += 1;
      if (rank !== 0) misses.push({ query, rank });
    }
  } finally {
    client.close();
  }
  latencies.sort((a, b) => a - b);
  return {
    queries: queries.length,
    recallAt1: first / queries.length,
    recallAt5: topFive / queries.length,
    medianMs: percentile(latencies, 0.5),
    p95Ms: percentile(latencies, 0.95),
    latenciesMs: latencies,
    retried,
    misses,
  };
}
