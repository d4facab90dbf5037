/**
 * `npm run bench`: starts the whole system on fresh databases, loads the full
 * public datasets (or, with --smoke, keeps the small default dataset), runs
 * every scenario through the gateway beside its baselines, and prints and
 * writes the figures (bench/results/). See docs/PERFORMANCE.md.
 *
 *   npm run bench                     full run (several minutes)
 *   npm run bench -- --smoke          seconds, tiny data: checks the harness, never a speed
 *   npm run bench -- --only fuzzy     scenarios whose name contains "fuzzy" (or any of several: --only exact,labs)
 *   npm run bench -- --diseases 1000000 --transactions 1000000   other data sizes
 *   npm run bench -- --profile        also writes each service's CPU profile to bench/profiles/
 *   npm run bench -- --smoke --connections 32 --duration 10 --only create --profile   profile one path quickly
 *   npm run bench -- --warmup 5       seconds of load before each measured window (5 full, 0.2 smoke)
 *   npm run bench -- --rate 50        every run paced at 50 requests a second: CPU per request at one throughput
 *   npm run bench -- --node-flags=--max-semi-space-size=8   services run with these Node flags too (after the usual ones)
 *   npm run bench -- --seed 7         query sets (misspellings, partial words) drawn from another seed
 */
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SERVICE_NODE_FLAGS } from '@libs/lifecycle';
import { startSystem } from '@libs/testing';
import { SERVICE_NAMES, type ServiceName } from '@libs/topology';
import { startBaseline } from './baselines/start-baseline';
import type { BenchContext, Measurement, Scenario, Verdict } from './context';
import { watchedProcesses } from './cpu/watched';
import { startCpuWindow } from './cpu/window';
import { cpuPerRequest, describeCpu } from './cpu/per-request';
import { loadFullData } from './full-data';
import { profilesOfRun } from './profile/profiles-of-run';
import { describeOutcomes } from './load/load-spec';
import { runLoad } from './load/run-load';
import { PhasePeaks } from './peak-rss';
import { seededRandom } from '../search-quality/typos';
import { writeReport, type BenchReport } from './report';
import { deepPage, exactSearch, fuzzySearch, fuzzySearchZipf } from './scenarios/diseases';
import { drugsAndDosages, labSearch } from './scenarios/catalogue';
import { drugSearch } from './scenarios/drug-search';
import { valueSetExpand } from './scenarios/value-set-expand';
import { typeAhead } from './scenarios/type-ahead';
import { calendarFeeds } from './scenarios/calendar-feeds';
import { bulkCreate, createWithAudit, listByDateRange } from './scenarios/finance';
import { statementPdf, transactionsCsv } from './scenarios/finance-documents';
import { bulkDownload } from './scenarios/bulk-download';
import { uploads } from './scenarios/finance-uploads';
import { keyedReadCost, noisyNeighbour } from './scenarios/fairness';
import { httpFloor } from './scenarios/floor';
import { enumerationTiming } from './scenarios/identity';
import { reminders } from './scenarios/reminders';
import { scheduling } from './scenarios/scheduling';
import { webhookFairness, webhookFanOut, webhookLag } from './scenarios/webhooks';

const ROOT = resolve(__dirname, '../..');

const SCENARIOS: Record<string, Scenario> = {
  'http floor': httpFloor,
  'fuzzy search': fuzzySearch,
  'fuzzy search zipf': fuzzySearchZipf,
  'exact search': exactSearch,
  'deep page': deepPage,
  labs: labSearch,
  'bulk download': bulkDownload,
  'drugs and dosages': drugsAndDosages,
  'drug search': drugSearch,
  '$expand filter': valueSetExpand,
  'type-ahead': typeAhead,
  'transaction create': createWithAudit,
  'bulk create': bulkCreate,
  'transaction list': listByDateRange,
  'statement pdf': statementPdf,
  'transactions csv': transactionsCsv,
  uploads,
  'keyed read cost': keyedReadCost,
  'noisy neighbour': noisyNeighbour,
  scheduling,
  'enumeration timing': enumerationTiming,
  reminders,
  'calendar feed': calendarFeeds,
  // Last: their endpoints are gone when they end, but a scenario's own events must not fan out to them meanwhile.
  'webhook lag': webhookLag,
  'webhook fan-out': webhookFanOut,
  'webhook fairness': webhookFairness,
};

/** The committed full run's seed. */
const DEFAULT_SEED = 20261122;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      smoke: { type: 'boolean', default: false },
      only: { type: 'string' },
      duration: { type: 'string' },
      transactions: { type: 'string' },
      diseases: { type: 'string' },
      profile: { type: 'boolean', default: false },
      connections: { type: 'string' },
      warmup: { type: 'string' },
      rate: { type: 'string' },
      'node-flags': { type: 'string' },
      seed: { type: 'string' },
    },
  });
  const smoke = values.smoke;
  // Only the default full run replaces the committed figures (latest-full): a run of some scenarios, other data
  // sizes, durations or connections, or under the profiler, is written as partial.
  const { only, duration, transactions, diseases, connections, warmup, rate, profile, seed } = values;
  const extraNodeFlags = values['node-flags']?.split(' ').filter(Boolean) ?? [];
  const partial =
    [only, duration, transactions, diseases, connections, warmup, rate, seed].some((value) => value !== undefined) || profile || extraNodeFlags.length > 0;
  // Number('') is 0: an empty --seed is a mistake, not seed 0.
  const runSeed = seed === undefined ? DEFAULT_SEED : /^-?\d+$/.test(seed) ? Number(seed) : NaN;
  if (!Number.isSafeInteger(runSeed)) throw new Error(`--seed must be an integer, not ${JSON.stringify(seed)}`);
  const wanted = only?.split(',');
  const chosen = Object.entries(SCENARIOS).filter(([name]) => !wanted || wanted.some((part) => name.includes(part)));
  const report: BenchReport = {
    startedAt: new Date().toISOString(),
    mode: smoke ? 'smoke' : partial ? 'partial' : 'full',
    seed: runSeed,
    machine: { cpus: cpus().length, node: process.version, serviceNodeFlags: [...SERVICE_NODE_FLAGS, ...extraNodeFlags] },
    measurements: [],
    verdicts: [],
    notes: [],
    peakRssMb: {},
    cpuNotMeasured: [],
  };

  // --cpu-prof writes <dir>/*.cpuprofile when a service exits (shutdown below); open it in Chrome DevTools.
  const profileDir = join(ROOT, 'bench', 'profiles');
  const nodeFlags = [...extraNodeFlags, ...(values.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])];
  let services: { name: string; pid: number }[] = [];
  const system = await startSystem({ nodeFlags, everyService: { LOG_LEVEL: 'warn' } });
  const baselines: { stop(): Promise<void> }[] = [];
  const silent: string[] = [];
  const measuredForMemory: { name: string; pid: number }[] = SERVICE_NAMES.flatMap((name) => {
    const pid = system.pid(name);
    return pid ? [{ name, pid }] : [];
  });
  const memory = new PhasePeaks(() => measuredForMemory);
  try {
    await loadFullData(system, {
      smoke,
      transactions: Number(values.transactions ?? (smoke ? 1_000 : 10_000_000)),
      diseases: Number(values.diseases ?? 0),
      log: (line) => console.log(line),
    });
    const expressPg = await startBaseline('express-pg', {
      REFERENCE_DATABASE_URL: system.databaseUrl('reference'),
      FINANCE_DATABASE_URL: system.databaseUrl('finance'),
    });
    const bareHttp = await startBaseline('bare-http');
    baselines.push(expressPg, bareHttp);
    memory.end('start and data load');
    measuredForMemory.push({ name: 'baseline express+pg', pid: expressPg.pid });
    const watched = await watchedProcesses(system, SERVICE_NAMES, { 'express+pg': expressPg, 'node:http': bareHttp });
    report.cpuNotMeasured = watched.missing;
    services = watched.spec.processes.filter(({ name }) => SERVICE_NAMES.includes(name as ServiceName));
    if (watched.missing.length > 0) console.log(`CPU not measured (not visible from here): ${watched.missing.join(', ')}`);

    const context: BenchContext = {
      smoke,
      duration: Number(values.duration ?? (smoke ? 1 : 10)),
      connections: Number(values.connections ?? (smoke ? 4 : 32)),
      warmup: Number(values.warmup ?? (smoke ? 0.2 : 5)),
      gatewayUrl: system.gatewayUrl,
      keys: system.keys,
      databaseUrl: (service) => system.databaseUrl(service),
      grpcAddress: (service) => system.grpcAddress(service),
      cpuWindow: () => startCpuWindow(watched.spec),
      expressPg,
      bareHttp,
      // The query sets (typos, partial words, samples) come from this: another --seed measures on words not tuned on.
      random: seededRandom(runSeed),
      load: (url, requests, options = {}) =>
        runLoad({
          url,
          requests,
          connections: options.connections ?? context.connections,
          duration: options.duration ?? context.duration,
          amount: options.amount,
          expected: options.expected,
          timeout: options.timeout,
          // --rate paces every run that sets no pace of its own: CPU per request then compares at one throughput.
          rate: options.rate ?? (options.amount || rate === undefined ? undefined : Number(rate)),
          // A run by amount or at a set rate is itself the measurement (its count or its pace matters): no warm-up.
          warmup: options.warmup ?? (options.amount || options.rate ? 0 : context.warmup),
          cpu: watched.spec,
        }),
      gatewayMetricsUrl: system.metricsUrl('gateway'),
      record: (measurement: Measurement) => {
        const { result } = measurement;
        const perRequest = result.cpu && cpuPerRequest(result.cpu, result.requests);
        report.measurements.push(perRequest ? { ...measurement, cpuMsPerRequest: perRequest } : measurement);
        console.log(
          `${measurement.scenario} [${measurement.target}]: ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, ${result.errors} errors (${describeOutcomes(result)})`,
        );
        if (perRequest) console.log(`  CPU ms/request: ${describeCpu(perRequest)}; other work kept ${result.cpu?.otherCores.toFixed(2)} cores busy`);
        return result;
      },
      judge: (verdict: Verdict) => {
        report.verdicts.push(verdict);
      },
      note: (name, value, unit) => {
        report.notes.push({ name, value, unit });
      },
    };

    for (const [name, scenario] of chosen) {
      console.log(`--- ${name}`);
      const before = report.measurements.length;
      memory.start();
      await scenario(context);
      memory.end(name);
      if (report.measurements.length === before) silent.push(name);
    }
    report.peakRssMb = memory.peaks();
    report.peakRssMbByPhase = memory.byPhase;
    for (const [service, mb] of Object.entries(report.peakRssMb)) {
      if (SERVICE_NAMES.includes(service as ServiceName)) {
        report.verdicts.push({ scenario: `${service} memory`, figure: `${mb.toFixed(0)} MB peak RSS`, target: '≤ 200 MB', met: mb <= 200 });
      }
    }
  } finally {
    await Promise.all(baselines.map((baseline) => baseline.stop()));
    await system.shutdown();
  }
  if (values.profile) report.profiles = profilesOfRun(profileDir, ROOT, services, report.measurements);

  console.log(`\n${writeReport(ROOT, report)}`);
  console.log(`written to ${join('bench', 'results', `latest-${report.mode}.md`)}`);
  if (smoke) assertSmoke(report, silent);
}

/** The smoke run checks the harness, never a speed: every scenario ran, and nothing failed. */
function assertSmoke(report: BenchReport, silent: string[]): void {
  const failed = report.measurements.filter((m) => m.result.errors > 0 || m.result.requests === 0);
  const problems = [
    ...failed.map((m) => `${m.scenario} [${m.target}] answered ${describeOutcomes(m.result)}`),
    ...silent.map((name) => `${name} measured nothing`),
  ];
  if (problems.length > 0) {
    console.error(`smoke run failed: ${problems.join('; ')}`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
