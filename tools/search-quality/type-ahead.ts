import { REFERENCE_LIMITS } from '@libs/contracts';
import { getRetrying, JsonClient } from './http-client';
import { percentile } from './percentile';
import type { TypeAheadQuery } from './query-sets';

/** The concept must be among the first this many suggestions: what a form shows without scrolling. */
export const TYPE_AHEAD_TOP = 5;
/** The characters the share counts within (the measure). */
export const TYPE_AHEAD_WITHIN = 6;

export interface TypeAheadReport {
  terms: number;
  /** Characters typed until the concept was in the top 5; a term never found counts all of its characters. */
  meanChars: number;
  /** Terms found within TYPE_AHEAD_WITHIN characters. */
  withinShare: number;
  /** Terms found at all, by their last character. */
  foundShare: number;
  medianMs: number;
  p99Ms: number;
  requests: number;
  /** Requests refused as too costly at that moment (429) and sent again: a busy machine, not a miss. */
  retried: number;
  /** Terms not found within TYPE_AHEAD_WITHIN characters, with the characters they took (0: never). */
  misses: { query: TypeAheadQuery; chars: number }[];
}

/**
 * Types each misspelt term a character at a time into GET /api/v1/suggest
 * (diseases, 5 at most), from the shortest prefix the operation takes, and
 * counts the characters typed until the meant disease is among the
 * suggestions: the user then picks it. One request per keystroke, one at a
 * time, as a user's browser sends them.
 */
export async function measureTypeAhead(gatewayUrl: string, apiKey: string, queries: TypeAheadQuery[]): Promise<TypeAheadReport> {
  const client = new JsonClient();
  const headers = { authorization: `Bearer ${apiKey}`, 'cache-control': 'no-cache' };
  const latencies: number[] = [];
  const misses: TypeAheadReport['misses'] = [];
  let typed = 0;
  let within = 0;
  let found = 0;
  let retried = 0;
  const suggests = async (prefix: string, diseaseName: string): Promise<boolean> => {
    const url = `${gatewayUrl}/api/v1/suggest?types=diseases&limit=${TYPE_AHEAD_TOP}&q=${encodeURIComponent(prefix)}`;
    const response = await getRetrying(client, url, headers);
    retried += response.retried;
    latencies.push(response.elapsedMs);
    if (response.status !== 200) throw new Error(`GET /api/v1/suggest?q=${prefix} answered ${response.status}: ${JSON.stringify(response.body)}`);
    const { suggestions } = response.body as { suggestions: { display: string }[] };
    return suggestions.some((item) => item.display.toLowerCase() === diseaseName);
  };
  try {
    for (const query of queries) {
      const diseaseName = query.diseaseName.toLowerCase();
      let chars = 0;
      for (let length = 1; length <= query.text.length && chars === 0; length++) {
        const prefix = query.text.slice(0, length);
        // Shorter than the operation takes (a letter, or a letter and a space): nothing is asked yet.
        if ([...prefix.trim()].length < REFERENCE_LIMITS.suggestMinLength) continue;
        if (await suggests(prefix, diseaseName)) chars = length;
      }
      typed += chars || query.text.length;
      if (chars > 0) found += 1;
      if (chars > 0 && chars <= TYPE_AHEAD_WITHIN) within += 1;
      else misses.push({ query, chars });
    }
  } finally {
    client.close();
  }
  latencies.sort((a, b) => a - b);
  return {
    terms: queries.length,
    meanChars: typed / queries.length,
    withinShare: within / queries.length,
    foundShare: found / queries.length,
    medianMs: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    requests: latencies.length,
    retried,
    misses,
  };
}
