import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Measurement, Verdict } from './context';
import { CPU_COLUMNS } from './cpu/per-request';
import { describeOutcomes } from './load/load-spec';
import type { MeasuredProfile } from './profile/profiles-of-run';

export interface BenchReport {
  startedAt: string;
  mode: 'full' | 'partial' | 'smoke';
  /** What the query sets were drawn from (--seed). */
  seed?: number;
  machine: { cpus: number; node: string; serviceNodeFlags?: string[] };
  measurements: Measurement[];
  verdicts: Verdict[];
  notes: { name: string; value: number; unit: string }[];
  /** Peak resident set size (VmHWM) of each process, in MB. */
  peakRssMb: Record<string, number>;
  /** The same by phase of the run (the data load, then each scenario): which one reached each peak. */
  peakRssMbByPhase?: Record<string, Record<string, number>>;
  /** Processes whose CPU could not be read from here (e.g. a server in a container). */
  cpuNotMeasured: string[];
  /** With --profile: what took each service's time in each measured window. */
  profiles?: MeasuredProfile[];
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '–');

function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join(
    '\n',
  );
}

const PROFILES_INTRO = [
  "Self time of each service's main thread (V8 CPU profile, `--cpu-prof`) inside each measured window, as a share of",
  "its busy samples, and that share of the process's CPU per request (/proc) in µs: by function, by where the code",
  'lives, and by package or source file charged with the time of the Node modules and native code it called (a socket',
  "write for grpc-js counts for grpc-js). The profile sees only the main thread; /proc also counts V8's and libuv's",
  "other threads (parallel GC, the thread pool), which the µs figures spread over the main thread's functions.",
].join(' ');

function profileSection(p: MeasuredProfile): string {
  const rows = (entries: MeasuredProfile['summary']['functions']) =>
    entries.map((e) => [e.name.replace(/\|/g, '\\|'), fixed(e.usPerRequest, 1), `${fixed(e.share * 100, 1)}%`]);
  return [
    `### ${p.scenario} [${p.target}]: ${p.service}`,
    `${fixed(p.procCpuMsPerRequest * 1000, 0)} µs CPU per request (/proc), spread by ${p.summary.samples} busy samples of the main thread.`,
    table(['function (self time)', 'µs/request', 'share'], rows(p.summary.functions)),
    table(['where (self time)', 'µs/request', 'share'], rows(p.summary.places)),
    table(['package or source file, charged with the Node and native code it called', 'µs/request', 'share'], rows(p.summary.charged)),
  ].join('\n\n');
}

export function toMarkdown(report: BenchReport): string {
  const loads = table(
    ['scenario', 'target', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'errors', 'outcomes (status, or why no answer)'],
    report.measurements.map((m) => [
      m.scenario,
      m.target,
      fixed(m.result.requestsPerSecond, 0),
      fixed(m.result.p50Ms),
      fixed(m.result.p99Ms),
      String(m.result.requests),
      String(m.result.errors),
      describeOutcomes(m.result),
    ]),
  );
  const cpu = table(
    [
      'scenario',
      'target',
      ...CPU_COLUMNS.map((column) => column.title),
      'PostgreSQL: backends exited, CPU ms the samples missed',
      'cores busy with other work',
    ],
    report.measurements.flatMap((m) => {
      const perRequest = m.cpuMsPerRequest;
      if (!perRequest) return [];
      return [[
        m.scenario,
        m.target,
        ...CPU_COLUMNS.map((column) => fixed(column.of(perRequest), 3)),
        m.result.cpu?.postgres ? `${m.result.cpu.postgres.exitedBackends}, ${fixed(m.result.cpu.postgres.missedMs, 0)}` : '–',
        fixed(m.result.cpu?.otherCores ?? NaN, 2),
      ]];
    }),
  );
  const verdicts = table(
    ['scenario', 'measured', 'target', 'met'],
    report.verdicts.map((v) => [v.scenario, v.figure, v.target, v.met ? 'yes' : '**no**']),
  );
  const notes = table(['figure', 'value'], report.notes.map((n) => [n.name, `${fixed(n.value)} ${n.unit}`]));
  const rss = table(['process', 'peak RSS MB'], Object.entries(report.peakRssMb).map(([name, mb]) => [name, fixed(mb)]));
  const processes = Object.keys(report.peakRssMb);
  const byPhase = report.peakRssMbByPhase
    ? table(['phase', ...processes], Object.entries(report.peakRssMbByPhase).map(([phase, peaks]) => [phase, ...processes.map((name) => fixed(peaks[name] ?? NaN))]))
    : '';
  return [
    `# Benchmark, ${report.mode} run of ${report.startedAt}${report.seed === undefined ? '' : `, seed ${report.seed}`}`,
    `${report.machine.cpus} CPUs, Node ${report.machine.node}${report.machine.serviceNodeFlags ? ` (services run with ${report.machine.serviceNodeFlags.join(' ')})` : ''}. Every service, PostgreSQL, RabbitMQ and the load generator share the machine.`,
    '## Load runs',
    loads,
    '## CPU per request',
    [
      'CPU milliseconds (user + system, from /proc/<pid>/stat) per answered request, over each measured window only',
      '(after its warm-up); PostgreSQL\'s backends are those of the run\'s databases, followed by pid (docs/PERFORMANCE.md).',
      report.cpuNotMeasured.length > 0 ? `Not measured (not visible from here): ${report.cpuNotMeasured.join(', ')}.` : '',
    ]
      .filter(Boolean)
      .join(' '),
    cpu,
    '## Against the targets',
    verdicts,
    '## Other figures',
    notes,
    '## Memory',
    rss,
    ...(byPhase ? ['Peak RSS MB by phase (the peak is reset at each phase\'s start):', byPhase] : []),
    ...(report.profiles ? ['## Profiles', PROFILES_INTRO, ...report.profiles.map(profileSection)] : []),
    '',
  ].join('\n\n');
}

/** Writes bench/results/<timestamp>.{json,md} and latest.{json,md}. */
export function writeReport(root: string, report: BenchReport): string {
  const dir = join(root, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const stamp = report.startedAt.replace(/[:.]/g, '-');
  const markdown = toMarkdown(report);
  for (const name of [`${report.mode}-${stamp}`, `latest-${report.mode}`]) {
    writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(join(dir, `${name}.md`), markdown);
  }
  return markdown;
}
