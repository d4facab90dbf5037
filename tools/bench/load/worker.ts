/**
 * The load generator, run as its own process so that its CPU use is never
 * counted against the process under test. Reads a LoadSpec from the file named
 * by argv[2] and prints one LoadResult as JSON. The watched processes' CPU is
 * read here, right before and right after the measured run, so that the window
 * holds the load and nothing else: not this process's start, not the warm-up.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { startCpuWindow } from '../cpu/window';
import type { LoadResult, LoadSpec } from './load-spec';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8')) as LoadSpec;
/** The longest pause between the warm-up and the window, for the warm-up's last requests to finish. */
const SETTLE_MAX_MS = 2_000;
let next = 0;

/** Why a request of the measured run got no answer (socket errors by code, timeouts), counted as they happen. */
const noAnswer: Record<string, number> = {};
let counting = false;

/** autocannon's timeout is an Error without a code; a socket's error carries one (ECONNRESET, EPIPE, …). */
const kindOf = (error: Error & { code?: string }) => error.code ?? (/timed out/.test(error.message) ? 'timeout' : error.message);

function run(options: { duration: number } | { amount: number }): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        ...options,
        ...(spec.rate ? { overallRate: spec.rate } : {}),
        ...(spec.timeout ? { timeout: spec.timeout } : {}),
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
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    instance.on('reqError', (error: Error & { code?: string }) => {
      if (!counting) return;
      const kind = kindOf(error);
      noAnswer[kind] = (noAnswer[kind] ?? 0) + 1;
    });
  });
}

async function main(): Promise<void> {
  if (spec.warmup) {
    const warm = await run({ duration: spec.warmup });
    // autocannon drops the requests it has in flight when it stops, but the services still finish them: let them,
    // before the window opens. (Those in flight when the measured run stops are dropped too; their work so far is
    // in the window and they are not counted: connections ÷ requests at most, ~1% at 32 connections and 3,000.)
    await new Promise((resolve) => setTimeout(resolve, Math.min(SETTLE_MAX_MS, warm.latency.p99)));
  }
  const window = spec.cpu && startCpuWindow(spec.cpu);
  counting = true;
  const result = await run(spec.amount ? { amount: spec.amount } : { duration: spec.duration });
  const cpu = window?.stop();
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats?.count ?? 0]),
  );
  // autocannon writes a connection's next request as soon as an answer comes, also when that answer closed the
  // connection (`Connection: close`, as a refused upload's does): that request is lost without an error. A run of a
  // fixed amount knows how many it sent, so those are counted too, as `closed`.
  if (spec.amount) {
    const accounted = [...Object.values(statusCodes), ...Object.values(noAnswer)].reduce((sum, count) => sum + count, 0);
    if (accounted < spec.amount) noAnswer.closed = (noAnswer.closed ?? 0) + spec.amount - accounted;
  }
  const unexpected = Object.entries(statusCodes)
    .filter(([code]) => !(code.startsWith('2') || code === '304' || spec.expected?.includes(Number(code))))
    .reduce((sum, [, count]) => sum + count, 0);
  const output: LoadResult = {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + (noAnswer.closed ?? 0) + unexpected,
    statusCodes,
    ...(Object.keys(noAnswer).length > 0 ? { noAnswer } : {}),
    ...(cpu ? { cpu } : {}),
  };
  process.stdout.write(JSON.stringify(output));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
