import { pct } from './report';
import { TYPE_AHEAD_TOP, TYPE_AHEAD_WITHIN, type TypeAheadReport } from './type-ahead';

/**
 * What type-ahead must reach on the worst seed: the share of misspelt terms whose disease is among the first
 * TYPE_AHEAD_TOP suggestions by the TYPE_AHEAD_WITHIN-th character typed (the reasoning: docs/SEARCH.md,
 * "Type-ahead quality").
 */
export const TYPE_AHEAD_TARGET = { withinShare: 0.45 } as const;

export interface TypeAheadSeed {
  seed: number;
  report: TypeAheadReport;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** The worst seed: the one with the smallest share found within the characters (the goal's figure). */
export function worstTypeAheadSeed(seeds: TypeAheadSeed[]): TypeAheadSeed {
  const [first, ...rest] = seeds;
  if (!first) throw new Error('no seed was measured');
  return rest.reduce((worst, seed) => (seed.report.withinShare < worst.report.withinShare ? seed : worst), first);
}

/** The goal's miss in words, or undefined when the worst seed meets it. */
export function missedTypeAheadTarget(seeds: TypeAheadSeed[]): string | undefined {
  const { seed, report } = worstTypeAheadSeed(seeds);
  return report.withinShare < TYPE_AHEAD_TARGET.withinShare
    ? `type-ahead: ${pct(report.withinShare)} found within ${TYPE_AHEAD_WITHIN} characters on seed ${seed}, below ${pct(TYPE_AHEAD_TARGET.withinShare)}`
    : undefined;
}

/** A row per seed and the worst seed, as `npm run search-quality` prints them. */
export function formatTypeAheadReport(seeds: TypeAheadSeed[]): string {
  const row = (cells: string[]) => `| ${cells.join(' | ')} |\n`;
  let text = `type-ahead (one typo in the first 6 characters; disease in the top ${TYPE_AHEAD_TOP}):\n`;
  text += row(['seed', 'terms', 'mean characters', `within ${TYPE_AHEAD_WITHIN}`, 'found at all', 'requests', 'median', 'p99', '429s retried']);
  text += row(['---', '---', '---', '---', '---', '---', '---', '---', '---']);
  for (const { seed, report: r } of seeds) {
    text += row([String(seed), String(r.terms), r.meanChars.toFixed(2), pct(r.withinShare), pct(r.foundShare), String(r.requests), ms(r.medianMs), ms(r.p99Ms), String(r.retried)]);
  }
  const worst = worstTypeAheadSeed(seeds);
  text += `worst seed: ${worst.seed}, ${pct(worst.report.withinShare)} within ${TYPE_AHEAD_WITHIN} characters, mean ${worst.report.meanChars.toFixed(2)} characters\n`;
  return text;
}
