/**
 * Trigrams as pg_trgm takes them from a text: those of each word (a run of letters and digits) padded with two
 * spaces before and one after, each counted once however often it occurs ("duncan disease" has "  d" twice).
 * The texts are already lower-cased (disease terms) or folded (the catalogue's), as pg_trgm would lower-case them.
 */
export function trigramsOf(text: string): Set<string> {
  const trigrams = new Set<string>();
  for (const word of text.match(/[\p{L}\p{N}]+/gu) ?? []) {
    const padded = [...`  ${word} `];
    for (let i = 0; i + 3 <= padded.length; i++) trigrams.add(padded[i] + padded[i + 1] + padded[i + 2]);
  }
  return trigrams;
}

/**
 * pg_trgm's `similarity`: shared trigrams over the trigrams of either text, as the float4 it computes (the
 * ranking rounds it to thousandths, where a double could round the other way).
 */
export function trigramSimilarity(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const trigram of a) if (b.has(trigram)) shared += 1;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : Math.fround(shared / union);
}
