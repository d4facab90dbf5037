/**
 * `npm run fault-timeline`: what clients see while finance suffers a real fault.
 * Starts the system from dist/ (as the tests do), drives finance GETs and POSTs
 * through the gateway at a steady rate, plays each fault for --outage seconds,
 * and prints a timeline: how long clients got failures, and how long after the
 * fault had ended. See docs/OPERATIONS.md (circuit breakers) for the figures.
 *
 *   npm run fault-timeline                                   every fault, 4 s each
 *   npm run fault-timeline -- --fault db --outage 4          one fault
 *   npm run fault-timeline -- --gateway BREAKER_RESET_MS=5000   other gateway settings, to compare
 *   options: --get-rate 40 --post-rate 20 (requests a second), --warm 10 (s of load before the fault), --settle 8 (after)
 */
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { startSystem, waitFor, type RunningSystem } from '@libs/testing';
import type { ServiceName } from '@libs/topology';
import { FAULTS } from './faults';
import { startSteadyLoad, type LoadStream } from './steady-load';
import { buildReport, formatReport } from './timeline';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function financeReferences(system: RunningSystem): Promise<{ accountId: string; categoryId: string }> {
  const client = new Client({ connectionString: system.databaseUrl('finance') });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT (SELECT id FROM accounts ORDER BY id LIMIT 1) AS "accountId",
              (SELECT id FROM categories ORDER BY id LIMIT 1) AS "categoryId"`,
    );
    return rows[0];
  } finally {
    await client.end();
  }
}

/** Lines a service logged since `offset` that pass `test`. */
function countLines(system: RunningSystem, service: ServiceName, offset: number, test: (line: string) => boolean): number {
  return system.logs(service).slice(offset).split('\n').filter(test).length;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      fault: { type: 'string', default: 'all' },
      outage: { type: 'string', default: '4' },
      'get-rate': { type: 'string', default: '40' },
      'post-rate': { type: 'string', default: '20' },
      warm: { type: 'string', default: '10' },
      settle: { type: 'string', default: '8' },
      gateway: { type: 'string', multiple: true, default: [] },
    },
  });
  const faults = values.fault === 'all' ? Object.keys(FAULTS) : values.fault.split(',');
  for (const name of faults) if (!FAULTS[name]) throw new Error(`unknown fault ${name}; known: ${Object.keys(FAULTS).join(', ')}`);
  const outageMs = Number(values.outage) * 1000;
  const gatewayEnv = Object.fromEntries(values.gateway.map((pair) => pair.split('=', 2) as [string, string]));
  const system = await startSystem({ everyService: { LOG_LEVEL: 'warn' }, env: { gateway: gatewayEnv } });
  try {
    const refs = await financeReferences(system);
    const streams: LoadStream[] = [
      { kind: 'GET', perSecond: Number(values['get-rate']), request: () => ({ path: '/api/v1/transactions?limit=20' }) },
      {
        kind: 'POST',
        perSecond: Number(values['post-rate']),
        request: (i) => ({
          path: '/api/v1/transactions',
          method: 'POST',
          body: { date: '2026-09-01', ...refs, payee: `Fault timeline ${i}`, amount: -(1_000 + i) },
        }),
      },
    ];
    console.log(`# Fault timeline: ${outageMs / 1000} s faults of finance; gateway settings ${JSON.stringify(gatewayEnv)}\n`);
    for (const name of faults) {
      // A fresh gateway for each fault: no breaker state or reconnect backoff carried over from the previous one.
      await system.stop('gateway');
      await system.start('gateway');
      const headers = { authorization: `Bearer ${system.keys.bursar}` };
      const ok = async () => ((await fetch(`${system.gatewayUrl}/api/v1/transactions?limit=1`, { headers })).ok ? true : undefined);
      await waitFor('finance to answer through the gateway', ok, 30_000);
      const offsets = { finance: system.logs('finance').length, gateway: system.logs('gateway').length };
      const load = startSteadyLoad(system.gatewayUrl, system.keys.bursar, streams);
      // Steady traffic first, so the breaker's rolling window holds a running system's history, not an empty one.
      await sleep(Number(values.warm) * 1000);
      const window = await FAULTS[name].run(system, outageMs);
      await sleep(Number(values.settle) * 1000);
      const samples = await load.stop();
      const logLines = {
        'finance error': countLines(system, 'finance', offsets.finance, (line) => line.includes('"level":"error"')),
        'finance warn': countLines(system, 'finance', offsets.finance, (line) => line.includes('"level":"warn"')),
        'gateway "circuit opened"': countLines(system, 'gateway', offsets.gateway, (line) => line.includes('circuit opened')),
      };
      console.log(`${FAULTS[name].what}\n`);
      console.log(formatReport(buildReport(name, window, load.startedAt, samples, logLines)), '\n');
    }
  } finally {
    await system.shutdown();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
