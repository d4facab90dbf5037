import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Measurement, Verdict } from './context';

export interface BenchReport {
  startedAt: string;
  mode: 'full' | 'partial' | 'smoke';
  machine: { cpus: number; node: string };
  measurements: Measurement[];
  verdicts: Verdict[];
  notes: { name: string; value: number; unit: string }[];
  /** Peak resident set size (VmHWM) of each process, in MB. */
  peakRssMb: Record<string, number>;
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '–');

function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join(
    '\n',
  );
}

export function toMarkdown(report: BenchReport): string {
  const loads = table(
    ['scenario', 'target', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'errors'],
    report.measurements.map((m) => [
      m.scenario,
      m.target,
      fixed(m.result.requestsPerSecond, 0),
      fixed(m.result.p50Ms),
      fixed(m.result.p99Ms),
      String(m.result.requests),
      String(m.result.errors),
    ]),
  );
  const verdicts = table(
    ['scenario', 'measured', 'target', 'met'],
    report.verdicts.map((v) => [v.scenario, v.figure, v.target, v.met ? 'yes' : '**no**']),
  );
  const notes = table(['figure', 'value'], report.notes.map((n) => [n.name, `${fixed(n.value)} ${n.unit}`]));
  const rss = table(['process', 'peak RSS MB'], Object.entries(report.peakRssMb).map(([name, mb]) => [name, fixed(mb)]));
  return [
    `# Benchmark, ${report.mode} run of ${report.startedAt}`,
    `${report.machine.cpus} CPUs, Node ${report.machine.node}. Every service, PostgreSQL, RabbitMQ and the load generator share the machine.`,
    '## Load runs',
    loads,
    '## Against the targets',
    verdicts,
    '## Other figures',
    notes,
    '## Memory',
    rss,
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
