/** Picks `count` items with Zipf(s=1) frequencies: a few queries very often, most rarely, as real traffic does. */
export function zipfSample<T>(items: T[], count: number, random: () => number): T[] {
  const weights = items.map((_, rank) => 1 / (rank + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const cumulative: number[] = [];
  weights.reduce((sum, w, i) => (cumulative[i] = sum + w / total), 0);
  return Array.from({ length: count }, () => {
    const r = random();
    const index = cumulative.findIndex((c) => c >= r);
    return items[index === -1 ? items.length - 1 : index];
  });
}
