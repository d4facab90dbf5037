import type { QualityReport } from './measure';
import { formatReport, missedTargets, summarise, type SeedReport } from './report';

const report = (recallAt1: number, recallAt5: number, latenciesMs: number[]): QualityReport => ({
  queries: 2000,
  recallAt1,
  recallAt5,
  medianMs: latenciesMs[Math.floor(latenciesMs.length / 2)],
  p95Ms: latenciesMs[latenciesMs.length - 1],
  latenciesMs,
  retried: 0,
  misses: [],
});

const seeds: SeedReport[] = [
  { seed: 11, kinds: { names: report(0.991, 0.999, [3, 4, 9]), synonyms: report(0.985, 0.997, [2, 3, 4]) } },
  { seed: 12, kinds: { names: report(0.989, 1, [4, 5, 6]), synonyms: report(0.992, 0.994, [1, 2, 3]) } },
];

describe('the multi-seed report', () => {
  it('names the worst seed of each figure, and the median latency of all queries of a kind', () => {
    expect(summarise(seeds, 'names')).toEqual({
      recallAt1: { seed: 12, value: 0.989 },
      recallAt5: { seed: 11, value: 0.999 },
      medianMs: { seed: 12, value: 5 },
      p95Ms: { seed: 11, value: 9 },
      pooledMedianMs: 5, // of 3, 4, 4, 5, 6, 9
    });
    expect(summarise(seeds, 'synonyms').recallAt5).toEqual({ seed: 12, value: 0.994 });
  });

  it('says which target the worst seed misses, and nothing when all are met', () => {
    expect(missedTargets(seeds)).toEqual(['synonyms: recall@5 99.40% on seed 12, below 99.50%']);
    expect(missedTargets(seeds.slice(0, 1))).toEqual([]);
  });

  it('prints a row per kind and seed, then each kind’s worst seed', () => {
    const lines = formatReport(seeds).split('\n');
    expect(lines).toContain('| synonyms | 12 | 2000 | 99.20% | 99.40% | 2.0 ms | 3.0 ms | 0 |');
    expect(lines).toContain(
      'names     recall@1 98.90% (seed 12)  recall@5 99.90% (seed 11)  median 5.0 ms (seed 12)  p95 9.0 ms (seed 11)  median of all seeds 5.0 ms',
    );
  });
});
