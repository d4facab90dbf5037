import { candidateFilter, fuzzyCandidates } from './fuzzy-candidates';
import { rankMatches, type RankedMatch } from './fuzzy-rank';
import { boundedQuery } from './query-bounds';
import type { SearchDb } from './search-statement';
import type { TermIndex } from './term-index';

export type FuzzyOrder = 'relevance' | 'name-asc' | 'name-desc';

/**
 * The version of the ranking and of the candidate passes, which a cursor's
 * position depends on: bound to every fuzzy cursor, so that one made before
 * either changed is refused rather than misread. 2: uncommon edits and near
 * terms in the key; the wide pass adds to the first instead of replacing it.
 */
export const FUZZY_RANKING = 2;

/**
 * Where a page of a fuzzy search ends: the candidates the walk uses (0: the
 * first pass's; 1: those and the wide pass's), fixed by its first page so that
 * rows added mid-walk cannot switch them, and the sort tuple of the last
 * concept served, ending with its id.
 */
export interface FuzzyPosition {
  pass: 0 | 1;
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
 * The ranked matches of the first pass; and, when the walk uses them or (on a
 * first page) when no whole term is within the allowed typos of the query, the
 * wide pass's too. A part match ("polydipsia, psychogenic" for "pylydpsia") or
 * a term too many typos away is no reason to stop looking for what was
 * misspelt ("polydipsia", which only the wide pass finds).
 */
async function rankedMatches(db: SearchDb, index: TermIndex, query: string, order: FuzzyOrder, position?: FuzzyPosition) {
  const byName = order !== 'relevance';
  const first = await fuzzyCandidates(db, index, query, 0, byName);
  const matches = rankMatches(query, first);
  const wide = position ? position.pass === 1 : widens(query) && !matches.some((match) => match.closeTerms > 0);
  if (!wide) return { pass: 0 as const, matches };
  return { pass: 1 as const, matches: rankMatches(query, [...first, ...(await fuzzyCandidates(db, index, query, 1, byName))]) };
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
