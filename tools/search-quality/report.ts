import type { QualityReport } from './measure';
import { percentile } from './percentile';
import type { QuerySets } from './query-sets';

/** The query kinds, each a set of its own: misspelt disease names and misspelt synonyms. */
export const KINDS = ['names', 'synonyms'] as const satisfies readonly (keyof QuerySets)[];
export type Kind = (typeof KINDS)[number];

/** What search must reach on the worst seed, for each kind. */
export const TARGETS = { recallAt1: 0.98, recallAt5: 0.995 } as const;

export interface SeedReport {
  seed: number;
  kinds: Record<Kind, QualityReport>;
}

/** The seed that did worst on one figure of one kind, and its value. */
export interface Worst {
  seed: number;
  value: number;
}

export interface KindSummary {
  recallAt1: Worst;
  recallAt5: Worst;
  medianMs: Worst;
  p95Ms: Worst;
  /** Over every query of every seed, the latency a user sees most often. */
  pooledMedianMs: number;
}

function worstOf(
  reports: SeedReport[],
  kind: Kind,
  figure: (report: QualityReport) => number,
  worse: (a: number, b: number) => boolean,
): Worst {
  let worst: Worst | undefined;
  for (const { seed, kinds } of reports) {
    const value = figure(kinds[kind]);
    if (!worst || worse(value, worst.value)) worst = { seed, value };
  }
  if (!worst) throw new Error('no seed was measured');
  return worst;
}

const lower = (a: number, b: number) => a < b;
const higher = (a: number, b: number) => a > b;

/** One kind over every seed: the worst seed of each figure, and the median latency of all its queries together. */
export function summarise(reports: SeedReport[], kind: Kind): KindSummary {
  const pooled = reports.flatMap((report) => report.kinds[kind].latenciesMs).sort((a, b) => a - b);
  return {
    recallAt1: worstOf(reports, kind, (r) => r.recallAt1, lower),
    recallAt5: worstOf(reports, kind, (r) => r.recallAt5, lower),
    medianMs: worstOf(reports, kind, (r) => r.medianMs, higher),
    p95Ms: worstOf(reports, kind, (r) => r.p95Ms, higher),
    pooledMedianMs: percentile(pooled, 0.5),
  };
}

/** The targets the worst seed misses, in words; empty when every kind meets them. */
export function missedTargets(reports: SeedReport[]): string[] {
  return KINDS.flatMap((kind) => {
    const summary = summarise(reports, kind);
    return (['recallAt1', 'recallAt5'] as const).flatMap((figure) =>
      summary[figure].value < TARGETS[figure]
        ? [`${kind}: ${FIGURE_NAMES[figure]} ${pct(summary[figure].value)} on seed ${summary[figure].seed}, below ${pct(TARGETS[figure])}`]
        : [],
    );
  });
}

const FIGURE_NAMES = { recallAt1: 'recall@1', recallAt5: 'recall@5' } as const;
export const pct = (share: number) => `${(share * 100).toFixed(2)}%`;
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** The per-seed table and, for each kind, its worst seed: what `npm run search-quality` prints. */
export function formatReport(reports: SeedReport[]): string {
  const row = (cells: string[]) => `| ${cells.join(' | ')} |\n`;
  let text = row(['kind', 'seed', 'queries', 'recall@1', 'recall@5', 'median', 'p95', '429s retried']);
  text += row(['---', '---', '---', '---', '---', '---', '---', '---']);
  for (const kind of KINDS) {
    for (const { seed, kinds } of reports) {
      const r = kinds[kind];
      text += row([kind, String(seed), String(r.queries), pct(r.recallAt1), pct(r.recallAt5), ms(r.medianMs), ms(r.p95Ms), String(r.retried)]);
    }
  }
  text += '\nworst seed of each figure:\n';
  for (const kind of KINDS) {
    const s = summarise(reports, kind);
    text +=
      `${kind.padEnd(9)} recall@1 ${pct(s.recallAt1.value)} (seed ${s.recallAt1.seed})  recall@5 ${pct(s.recallAt5.value)} (seed ${s.recallAt5.seed})  ` +
      `median ${ms(s.medianMs.value)} (seed ${s.medianMs.seed})  p95 ${ms(s.p95Ms.value)} (seed ${s.p95Ms.seed})  ` +
      `median of all seeds ${ms(s.pooledMedianMs)}\n`;
  }
  return text;
}
