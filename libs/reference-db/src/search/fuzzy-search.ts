import { allowedTypos } from './edit-distance';
import {
  candidateFilter,
  candidatesMatching,
  fuzzyCandidates,
  lengthWindow,
  similarityBound,
  type CandidateFilter,
} from './fuzzy-candidates';
import { rankMatches, type FuzzyCandidate, type RankedMatch } from './fuzzy-rank';
import { nearCandidates } from './near-candidates';
import { boundedQuery } from './query-bounds';
import type { SearchDb } from './search-statement';
import { prefixPattern } from './like-pattern';
import type { TermIndex } from './term-index';

export type FuzzyOrder = 'relevance' | 'name-asc' | 'name-desc';

/**
 * The version of the ranking and of the candidate passes, which a cursor's
 * position depends on: bound to every fuzzy cursor, so that one made before
 * either changed is refused rather than misread. 2: uncommon edits and near
 * terms in the key; the wide pass adds to the first instead of replacing it.
 * 3: the near pass comes first (FuzzyPass).
 */
export const FUZZY_RANKING = 3;

/**
 * The candidate sets a walk may use (fixed by its first page):
 * 0. near: every whole term within the allowed typos of the query, and the terms it begins (nearFilter);
 * 1. loose: trigram-similar terms, and for one word the terms with a similar part (candidateFilter pass 0);
 * 2. loose and wide: those, and whole terms down to the worst-case bound (candidateFilter pass 1).
 */
export type FuzzyPass = 0 | 1 | 2;
export const FUZZY_PASSES: readonly FuzzyPass[] = [0, 1, 2];

/**
 * Where a page of a fuzzy search ends: the candidates the walk uses, fixed by
 * its first page so that rows added mid-walk cannot switch them, and the sort
 * tuple of the last concept served, ending with its id.
 */
export interface FuzzyPosition {
  pass: FuzzyPass;
  after: (number | string)[];
}

function sortTuple(order: FuzzyOrder, match: RankedMatch): (number | string)[] {
  const id = Number(match.pk);
  // Candidates carry their concept's name key whenever the order is by name (rankedMatches).
  return order === 'relevance' ? [...match.key, id] : [match.nameKey as string, id];
}

function compareTuples(a: (number | string)[], b: (number | string)[]): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

/** Whether the wide pass could find anything the first has not: only when its similarity threshold is lower. */
const widens = (query: string) => candidateFilter(query, 1).similarity < candidateFilter(query, 0).similarity;

/**
 * The near pass: whole terms within `typos` typos of the query, which the
 * worst-case similarity bound and the length window find completely (see
 * candidateFilter), and the terms the query begins (B-tree). The trigram
 * index reads the posting lists of the query's trigrams as for the loose
 * pass, but the near pass rechecks only terms about the query's length and
 * ranks a few dozen rows, where the loose one rechecks and ranks every term
 * sharing a common word ("syndrome": thousands) or, for one word, a part
 * ("-itides": a thousand); docs/SEARCH.md has the figures.
 */
const nearFilter = (query: string, typos: number): Required<Omit<CandidateFilter, 'wordSimilarity'>> => ({
  similarity: similarityBound(query, typos),
  length: lengthWindow(query, typos),
  prefix: prefixPattern(query),
});

/**
 * The near pass's candidates: from the terms in memory when the service keeps them and they are up to date, else
 * (no terms kept, or a build under way) from the trigram index; both give the same (near-candidates.ts).
 */
async function nearPassCandidates(db: SearchDb, index: TermIndex, query: string, typos: number, byName: boolean): Promise<FuzzyCandidate[]> {
  const filter = nearFilter(query, typos);
  const table = await db.terms?.ifCurrent(index.dataset);
  return table ? nearCandidates(table, query, filter, byName) : candidatesMatching(db, index, query, filter, byName);
}

/**
 * The ranked matches of the near pass when it holds a whole term within the
 * allowed typos: it then holds every concept the loose pass would rank before
 * that term (an exact term, a term the query begins, a nearer term) but for a
 * typo in a prefix, and every term within the allowed typos, so their order is
 * the loose pass's; concepts only loosely similar are left out. Otherwise,
 * nothing is within the allowed typos and the search is as it was: the loose
 * pass and, when no whole term it found is within the allowed typos, the wide
 * pass's too (a part match, "polydipsia, psychogenic" for "pylydpsia", is no
 * reason to stop looking for "polydipsia", which only the wide pass finds).
 * A walk keeps the pass of its first page.
 */
async function rankedMatches(db: SearchDb, index: TermIndex, query: string, order: FuzzyOrder, position?: FuzzyPosition) {
  const byName = order !== 'relevance';
  const typos = allowedTypos(query);
  if (!position || position.pass === 0) {
    const matches = rankMatches(query, await nearPassCandidates(db, index, query, typos, byName));
    if (position || matches.some((match) => match.nearestEdits <= typos)) return { pass: 0 as const, matches };
  }
  const first = await fuzzyCandidates(db, index, query, 0, byName);
  const matches = rankMatches(query, first);
  const wide = position ? position.pass === 2 : widens(query) && !matches.some((match) => match.closeTerms > 0);
  if (!wide) return { pass: 1 as const, matches };
  return { pass: 2 as const, matches: rankMatches(query, [...first, ...(await fuzzyCandidates(db, index, query, 1, byName))]) };
}

/**
 * One page of typo-tolerant matches: candidates from the trigram index,
 * ranked in the service by edit distance (see docs/SEARCH.md), then cut at
 * the keyset position. Every page recomputes the same candidate set, so a
 * walk is stable without server-side state. What is searched and ranked is
 * the bounded query (boundedQuery), the same for every page of a walk.
 * `index` says which vocabulary (DISEASE_TERMS, DRUG_TERMS).
 */
export async function fuzzyPage(
  db: SearchDb,
  index: TermIndex,
  text: string,
  order: FuzzyOrder,
  limit: number,
  position?: FuzzyPosition,
): Promise<{ pks: string[]; next?: FuzzyPosition }> {
  const query = boundedQuery(text);
  const { pass, matches } = await rankedMatches(db, index, query, order, position);
  const direction = order === 'name-desc' ? -1 : 1;
  let rows = matches.map((match) => ({ match, tuple: sortTuple(order, match) }));
  rows.sort((a, b) => direction * compareTuples(a.tuple, b.tuple));
  if (position) rows = rows.filter((row) => direction * compareTuples(row.tuple, position.after) > 0);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    pks: page.map((row) => row.match.pk),
    next: rows.length > limit && last ? { pass, after: last.tuple } : undefined,
  };
}
