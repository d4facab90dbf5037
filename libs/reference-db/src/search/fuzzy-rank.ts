import { allowedTypos, editDistances } from './edit-distance';

/** A name or synonym that the trigram index offered for a query; `pk` names its concept (a disease, a drug). */
export interface FuzzyCandidate {
  pk: string;
  /** Lower-cased name of the concept (disease, drug), when the matches are to be ordered by name. */
  nameKey?: string;
  term: string;
  isName: boolean;
  /** pg_trgm similarity of the term to the query, 0..1. */
  similarity: number;
}

/**
 * How near a term is to the query, compared element by element, smaller first:
 * 0. cost in half edits: 0 exact, 1 an exact prefix, 2 one typo, 3 one typo in a prefix, ...
 * 1. edits to the whole term (a shorter term wins among equal prefixes);
 * 2. uncommon edits among those of element 0 (a wrong letter, an extra letter that doubles none of its
 *    neighbours: see edit-distance.ts);
 * 3. trigram dissimilarity in thousandths (how much of the query's text the term shares);
 * 4. 0 for the concept's own name, 1 for a synonym.
 */
type TermKey = [number, number, number, number, number];

function termKey(query: string, candidate: FuzzyCandidate): TermKey {
  const { full, prefix, fullUncommon, prefixUncommon } = editDistances(query, candidate.term);
  const wholeTerm = 2 * full <= 2 * prefix + 1;
  return [
    wholeTerm ? 2 * full : 2 * prefix + 1,
    full,
    wholeTerm ? fullUncommon : prefixUncommon,
    1000 - Math.round(candidate.similarity * 1000),
    candidate.isName ? 0 : 1,
  ];
}

/**
 * Relevance of a concept (a disease, a drug): the key of its best term, with, after the edits, how
 * many of its names and synonyms are within the allowed typos of the whole
 * query (negated, so that more comes first). Of two concepts whose best terms
 * are equally near, the one that more of its terms would explain is the
 * likelier meant: "dystoia" is one dropped letter from both "dystocia" and
 * "dystonia", and two from "dystocias" too.
 * The concept's id breaks the remaining ties, so the order is total and stable for keyset paging.
 */
export type RankKey = [number, number, number, number, number, number];

export function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

export interface RankedMatch {
  pk: string;
  nameKey?: string;
  /** The best-matching term, and whether it is the concept's own name (type-ahead shows the synonym it matched). */
  term: string;
  isName: boolean;
  key: RankKey;
  /** How many of its terms are within the allowed typos of the whole query: none means only part matches. */
  closeTerms: number;
  /** The fewest edits from the query to one of its whole terms. */
  nearestEdits: number;
}

/** Each concept once, scored by its best-matching name or synonym. */
export function rankMatches(query: string, candidates: FuzzyCandidate[]): RankedMatch[] {
  const typos = allowedTypos(query);
  const concepts = new Map<string, { nameKey?: string; best: TermKey; bestTerm: FuzzyCandidate; close: Set<string>; nearest: number }>();
  for (const candidate of candidates) {
    const key = termKey(query, candidate);
    let concept = concepts.get(candidate.pk);
    if (!concept) {
      concept = { nameKey: candidate.nameKey, best: key, bestTerm: candidate, close: new Set(), nearest: key[1] };
      concepts.set(candidate.pk, concept);
    } else if (compareKeys(key, concept.best) < 0) {
      concept.best = key;
      concept.bestTerm = candidate;
    }
    concept.nearest = Math.min(concept.nearest, key[1]);
    // A term can come from both candidate passes: count it once.
    if (key[1] <= typos) concept.close.add(candidate.term);
  }
  return [...concepts].map(([pk, { nameKey, best, bestTerm, close, nearest }]) => ({
    pk,
    nameKey,
    term: bestTerm.term,
    isName: bestTerm.isName,
    key: [best[0], best[1], best[2], -close.size, best[3], best[4]],
    closeTerms: close.size,
    nearestEdits: nearest,
  }));
}
