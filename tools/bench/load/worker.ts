/**
 * The load generator, run as its own process so that its CPU use is never
 * counted against the process under test. Reads a LoadSpec from the file named
 * by argv[2] and prints one LoadResult as JSON.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { LoadResult, LoadSpec } from './load-spec';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8')) as LoadSpec;
let next = 0;

autocannon(
  {
    url: spec.url,
    connections: spec.connections,
    ...(spec.amount ? { amount: spec.amount } : { duration: spec.duration }),
    ...(spec.rate ? { overallRate: spec.rate } : {}),
    requests: [
      {
        setupRequest: (request) => {
          const chosen = spec.requests[next++ % spec.requests.length];
          return {
            ...request,
            method: chosen.method ?? 'GET',
            path: chosen.path,
            headers: { ...request.headers, ...chosen.headers },
            body: chosen.body,
          };
        },
      },
    ],
  },
  (error, result) => {
    if (error) throw error;
    const statusCodes = Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats?.count ?? 0]),
    );
    const unexpected = Object.entries(statusCodes)
      .filter(([code]) => !(code.startsWith('2') || code === '304' || spec.expected?.includes(Number(code))))
      .reduce((sum, [, count]) => sum + count, 0);
    const output: LoadResult = {
      requestsPerSecond: result.requests.average,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      requests: result.requests.total,
      errors: result.errors + result.timeouts + unexpected,
      statusCodes,
    };
    process.stdout.write(JSON.stringify(output));
  },
);
