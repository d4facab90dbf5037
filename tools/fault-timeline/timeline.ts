import type { FaultWindow } from './faults';
import type { Sample } from './steady-load';

const BUCKET_MS = 500;
const OUTCOMES = ['2xx', '500', '503', '503 paused', '504', 'other'] as const;
type Outcome = (typeof OUTCOMES)[number];

function outcomeOf(sample: Sample): Outcome {
  if (sample.status >= 200 && sample.status < 300) return '2xx';
  if (sample.status === 503) return sample.breakerOpen ? '503 paused' : '503';
  if (sample.status === 500 || sample.status === 504) return String(sample.status) as Outcome;
  return 'other';
}

/** What the clients of one kind of request saw, with times relative to the fault's beginning (ms). */
export interface KindSummary {
  kind: string;
  requests: number;
  outcomes: Partial<Record<Outcome, number>>;
  /** From the first failed answer to the last one received: how long clients saw failures. */
  failingMs: number;
  /** How long after the fault ended the last failed answer came (0 when none came after). */
  failingAfterEndMs: number;
  slowestMs: number;
}

function summariseKind(kind: string, samples: Sample[], fault: { beganMs: number; endedMs: number }): KindSummary {
  const outcomes: Partial<Record<Outcome, number>> = {};
  for (const sample of samples) outcomes[outcomeOf(sample)] = (outcomes[outcomeOf(sample)] ?? 0) + 1;
  const failed = samples.filter((sample) => outcomeOf(sample) !== '2xx').map((sample) => sample.doneMs);
  const first = Math.min(...failed);
  const last = Math.max(...failed);
  return {
    kind,
    requests: samples.length,
    outcomes,
    failingMs: failed.length ? last - first : 0,
    failingAfterEndMs: failed.length ? Math.max(0, last - fault.endedMs) : 0,
    slowestMs: Math.max(...samples.map((sample) => sample.doneMs - sample.sentMs)),
  };
}

export interface FaultReport {
  fault: string;
  outageMs: number;
  kinds: KindSummary[];
  /** Counts per half second (by when the answer came), from a second before the fault. */
  buckets: { fromMs: number; outcomes: Partial<Record<Outcome, number>>; slowestMs: number }[];
  logLines: Record<string, number>;
}

export function buildReport(
  fault: string,
  window: FaultWindow,
  loadStartedAt: number,
  samples: Sample[],
  logLines: Record<string, number>,
): FaultReport {
  const relative = { beganMs: 0, endedMs: window.ended - window.began };
  const shifted = samples.map((sample) => ({
    ...sample,
    sentMs: sample.sentMs + loadStartedAt - window.began,
    doneMs: sample.doneMs + loadStartedAt - window.began,
  }));
  const kinds = [...new Set(shifted.map((sample) => sample.kind))];
  const buckets: FaultReport['buckets'] = [];
  const lastMs = Math.max(...shifted.map((sample) => sample.doneMs));
  for (let fromMs = -1000; fromMs <= lastMs; fromMs += BUCKET_MS) {
    const inBucket = shifted.filter((sample) => sample.doneMs >= fromMs && sample.doneMs < fromMs + BUCKET_MS);
    const outcomes: Partial<Record<Outcome, number>> = {};
    for (const sample of inBucket) outcomes[outcomeOf(sample)] = (outcomes[outcomeOf(sample)] ?? 0) + 1;
    buckets.push({ fromMs, outcomes, slowestMs: Math.max(0, ...inBucket.map((sample) => sample.doneMs - sample.sentMs)) });
  }
  return {
    fault,
    outageMs: relative.endedMs,
    kinds: kinds.map((kind) => summariseKind(kind, shifted.filter((sample) => sample.kind === kind), relative)),
    buckets,
    logLines,
  };
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

export function formatReport(report: FaultReport): string {
  const lines = [`### ${report.fault}: fault lasted ${seconds(report.outageMs)} s`, ''];
  lines.push(
    '| requests | sent | failing for (s) | failing after the fault ended (s) | slowest answer (s) | outcomes |',
    '|---|---|---|---|---|---|',
  );
  for (const kind of report.kinds) {
    const outcomes = Object.entries(kind.outcomes).map(([outcome, count]) => `${outcome}: ${count}`).join(', ');
    const times = [kind.failingMs, kind.failingAfterEndMs, kind.slowestMs].map(seconds).join(' | ');
    lines.push(`| ${kind.kind} | ${kind.requests} | ${times} | ${outcomes} |`);
  }
  lines.push('', `Log lines during the run: ${Object.entries(report.logLines).map(([what, count]) => `${what} ${count}`).join(', ')}`, '');
  lines.push(`| t (s) | ${OUTCOMES.join(' | ')} | slowest (ms) |`, `|---|${OUTCOMES.map(() => '---|').join('')}---|`);
  for (const bucket of report.buckets) {
    const counts = OUTCOMES.map((outcome) => bucket.outcomes[outcome] ?? '');
    lines.push(`| ${seconds(bucket.fromMs)} | ${counts.join(' | ')} | ${bucket.slowestMs} |`);
  }
  return lines.join('\n');
}
