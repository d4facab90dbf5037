import { allowedTypos, candidateFilter, fuzzyCandidates } from './fuzzy-candidates';
import { rankDiseases, type RankedDisease } from './fuzzy-rank';
import { boundedQuery } from './query-bounds';
import type { SearchDb } from './search-statement';

export type FuzzyOrder = 'relevance' | 'name-asc' | 'name-desc';

/**
 * Where a page of a fuzzy search ends: the candidate pass the walk uses (fixed
 * by its first page, so rows added mid-walk cannot switch it) and the sort
 * tuple of the last disease served, ending with its id.
 */
export interface FuzzyPosition {
  pass: 0 | 1;
  after: (number | string)[];
}

function sortTuple(order: FuzzyOrder, disease: RankedDisease): (number | string)[] {
  const id = Number(disease.diseasePk);
  // Candidates carry their disease's name key whenever the order is by name (rankedMatches).
  return order === 'relevance' ? [...disease.key, id] : [disease.nameKey as string, id];
}

function compareTuples(a: (number | string)[], b: (number | string)[]): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

async function rankedMatches(db: SearchDb, query: string, pass: 0 | 1, order: FuzzyOrder): Promise<RankedDisease[]> {
  return rankDiseases(query, await fuzzyCandidates(db, query, pass, order !== 'relevance'));
}

/** Within the allowed typos of the whole term or of its start: what a user who misspelt a name would mean. */
const plausible = (query: string) => (disease: RankedDisease) => disease.key[0] <= 2 * allowedTypos(query, 2) + 1;

/**
 * One page of typo-tolerant matches: candidates from the trigram index,
 * ranked in the service by edit distance (see docs/SEARCH.md), then cut at
 * the keyset position. Every page recomputes the same candidate set, so a
 * walk is stable without server-side state. What is searched and ranked is
 * the bounded query (boundedQuery), the same for every page of a walk.
 */
export async function fuzzyPage(
  db: SearchDb,
  text: string,
  order: FuzzyOrder,
  limit: number,
  position?: FuzzyPosition,
): Promise<{ diseasePks: string[]; next?: FuzzyPosition }> {
  const query = boundedQuery(text);
  let pass: 0 | 1 = position?.pass ?? 0;
  let matches = await rankedMatches(db, query, pass, order);
  const widens = candidateFilter(query, 1).similarity < candidateFilter(query, 0).similarity;
  if (!position && widens && !matches.some(plausible(query))) {
    pass = 1;
    matches = await rankedMatches(db, query, pass, order);
  }
  const direction = order === 'name-desc' ? -1 : 1;
  let rows = matches.map((disease) => ({ disease, tuple: sortTuple(order, disease) }));
  rows.sort((a, b) => direction * compareTuples(a.tuple, b.tuple));
  if (position) rows = rows.filter((row) => direction * compareTuples(row.tuple, position.after) > 0);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    diseasePks: page.map((row) => row.disease.diseasePk),
    next: rows.length > limit && last ? { pass, after: last.tuple } : undefined,
  };
}
