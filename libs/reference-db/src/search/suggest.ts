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

/** Typed text as part of a LIKE pattern: its own % _ and \ taken literally. */
const literal = (text: string) => text.replace(/[\\%_]/g, '\\$&');
/** `text%` as a LIKE pattern, its own % _ and \ taken literally. */
export const prefixPattern = (text: string) => `${literal(text)}%`;

/**
 * Queries of this many characters get the typo pass when the prefix pass finds too little: a typo in a shorter
 * one leaves too little to go on; from here on the trigram pass finds the word.
 */
const TYPO_PREFIX_LENGTHS = { min: 3, max: 8 } as const;
/** Terms each pattern of the typo pass offers at most. */
const TYPO_PREFIX_CANDIDATES = 30;

/**
 * The query with one typo undone, as LIKE prefix patterns: each letter
 * dropped (a doubled or extra letter), each pair of neighbours swapped, and,
 * after the first letter, each letter replaced by `_` (a wrong one) and `_`
 * put in each gap (a dropped one). A wildcard never starts a pattern, so each
 * is a range of the B-tree from its literal start.
 */
export function typoPrefixPatterns(query: string): string[] {
  const chars = [...query];
  const at = (from: number, to?: number) => literal(chars.slice(from, to).join(''));
  const patterns = new Set<string>();
  for (let i = 0; i < chars.length; i++) {
    patterns.add(`${at(0, i)}${at(i + 1)}%`);
    if (i + 1 < chars.length) patterns.add(`${at(0, i)}${literal(chars[i + 1] + chars[i])}${at(i + 2)}%`);
    if (i > 0) patterns.add(`${at(0, i)}_${at(i + 1)}%`).add(`${at(0, i)}_${at(i)}%`);
  }
  patterns.delete(prefixPattern(query));
  return [...patterns].filter((pattern) => !/^[%_]/.test(pattern));
}

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
 * The terms that start with the query but for one typo (typoPrefixPatterns),
 * each pattern's first TYPO_PREFIX_CANDIDATES in the index's order, in one
 * statement: what the trigram pass cannot find while the word is short
 * ("mneing" shares no trigram with "meningitis" but `  m`).
 */
async function typoPrefixCandidates(db: SearchDb, index: TermIndex, query: string): Promise<FuzzyCandidate[]> {
  const selects = typoPrefixPatterns(query).map(
    (pattern) => `(SELECT t.${index.owner}::text AS pk, t.term, t.is_name FROM ${index.terms} t
      WHERE t.term LIKE ${escapeLiteral(pattern)} ORDER BY t.term USING ~<~ LIMIT ${TYPO_PREFIX_CANDIDATES})`,
  );
  const rows = await runSearchStatement<{ pk: string; term: string; is_name: boolean }>(db, [], selects.join('\n UNION '));
  return rows.map((row) => ({ pk: row.pk, term: row.term, isName: row.is_name, similarity: 0 }));
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
  // Completions of the query as typed rank before any typo's: a typo pass only when they do not fill the list.
  const length = [...query].length;
  const typos =
    prefix.length < limit && length >= TYPO_PREFIX_LENGTHS.min && length <= TYPO_PREFIX_LENGTHS.max ? await typoPrefixCandidates(db, index, query) : [];
  return rankMatches(query, [...prefix, ...fuzzy, ...typos])
    .sort((a, b) => compareKeys(a.key, b.key) || Number(a.pk) - Number(b.pk))
    .slice(0, limit);
}
