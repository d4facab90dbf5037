import { editDistances } from './edit-distance';

/** A name or synonym that the trigram index offered for a query. */
export interface FuzzyCandidate {
  diseasePk: string;
  /** Lower-cased name of the disease, when the matches are to be ordered by name. */
  nameKey?: string;
  term: string;
  isName: boolean;
  /** pg_trgm similarity of the term to the query, 0..1. */
  similarity: number;
}

/**
 * Relevance of a term, compared element by element, smaller first:
 * 0. cost in half edits: 0 exact, 1 an exact prefix, 2 one typo, 3 one typo in a prefix, ...
 * 1. edits to the whole term (a shorter term wins among equal prefixes);
 * 2. trigram dissimilarity in thousandths (how much of the query's text the term shares);
 * 3. 0 for the disease's own name, 1 for a synonym.
 * The disease id breaks the remaining ties, so the order is total and stable for keyset paging.
 */
export type RankKey = [number, number, number, number];

export function rankKey(query: string, candidate: FuzzyCandidate): RankKey {
  const { full, prefix } = editDistances(query, candidate.term);
  return [Math.min(2 * full, 2 * prefix + 1), full, 1000 - Math.round(candidate.similarity * 1000), candidate.isName ? 0 : 1];
}

export function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

export interface RankedDisease {
  diseasePk: string;
  nameKey?: string;
  key: RankKey;
}

/** Each disease once, scored by its best-matching name or synonym. */
export function rankDiseases(query: string, candidates: FuzzyCandidate[]): RankedDisease[] {
  const best = new Map<string, RankedDisease>();
  for (const candidate of candidates) {
    const key = rankKey(query, candidate);
    const known = best.get(candidate.diseasePk);
    if (!known || compareKeys(key, known.key) < 0) {
      best.set(candidate.diseasePk, { diseasePk: candidate.diseasePk, nameKey: candidate.nameKey, key });
    }
  }
  return [...best.values()];
}
