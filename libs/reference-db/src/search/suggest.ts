import { escapeLiteral } from 'pg';
import { REFERENCE_LIMITS } from '@libs/contracts';
import { fuzzyCandidates } from './fuzzy-candidates';
import { compareKeys, rankMatches, type FuzzyCandidate, type RankedMatch } from './fuzzy-rank';
import { boundedQuery } from './query-bounds';
import { runSearchStatement, type SearchDb } from './search-statement';
import type { TermIndex } from './term-index';

export const MIN_SUGGEST_LENGTH = REFERENCE_LIMITS.suggestMinLength;
/** Below this the trigram pass finds nothing a prefix does not: a partial word of 2 letters has one trigram of its own. */
const MIN_FUZZY_LENGTH = 3;
/** Terms the prefix pass offers at most, in the index's order: the ranking then puts the nearest (shortest) first. */
const PREFIX_CANDIDATES = 200;

/** `text%` as a LIKE pattern, its own % _ and \ taken literally. */
export const prefixPattern = (text: string) => `${text.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * The terms that start with the query, from the B-tree on the term in
 * pattern order (`<terms>_prefix`, migration 0008-type-ahead), at most
 * PREFIX_CANDIDATES of them: a partial word's completions, which the trigram
 * pass misses while the word is still short ("me" shares one trigram with
 * "metformin").
 */
async function prefixCandidates(db: SearchDb, index: TermIndex, query: string): Promise<FuzzyCandidate[]> {
  const rows = await runSearchStatement<{ pk: string; term: string; is_name: boolean }>(
    db,
    [],
    `SELECT t.${index.owner}::text AS pk, t.term, t.is_name FROM ${index.terms} t
      WHERE t.term LIKE ${escapeLiteral(prefixPattern(query))} ORDER BY t.term USING ~<~ LIMIT ${PREFIX_CANDIDATES}`,
  );
  // A prefix shares all of its trigrams that do not end the word; the ranking's edit distances decide.
  return rows.map((row) => ({ pk: row.pk, term: row.term, isName: row.is_name, similarity: 1 }));
}

/**
 * Type-ahead over one vocabulary: the terms that start with the (partial)
 * query, and, from three characters on, the first candidate pass of fuzzy
 * search (typos, and words inside longer terms), ranked by the search's own
 * key, in which an exact prefix costs less than a typo and a shorter term
 * wins among equal prefixes (fuzzy-rank.ts). The best `limit`, best first.
 */
export async function suggestMatches(db: SearchDb, index: TermIndex, text: string, limit: number): Promise<RankedMatch[]> {
  const query = boundedQuery(text);
  const [prefix, fuzzy] = await Promise.all([
    prefixCandidates(db, index, query),
    query.length >= MIN_FUZZY_LENGTH ? fuzzyCandidates(db, index, query, 0, false) : Promise.resolve([]),
  ]);
  return rankMatches(query, [...prefix, ...fuzzy])
    .sort((a, b) => compareKeys(a.key, b.key) || Number(a.pk) - Number(b.pk))
    .slice(0, limit);
}
