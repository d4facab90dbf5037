import { REFERENCE_LIMITS } from '@libs/contracts';
import { PREFIX_CANDIDATES } from './fuzzy-candidates';
import { compareKeys, rankMatches, type FuzzyCandidate, type RankedMatch } from './fuzzy-rank';
import { boundedQuery, MAX_WORD_LENGTH } from './query-bounds';
import type { TermTable, TypoPattern } from './term-table';
import { TrigramSimilarity } from './trigrams';

export const MIN_SUGGEST_LENGTH = REFERENCE_LIMITS.suggestMinLength;
/** Below this, part matches and typos find nothing worth ranking: a partial word of 2 letters has one trigram of its own. */
const MIN_FUZZY_LENGTH = 3;

/**
 * The typo pass undoes one typo in the query's first this many characters (a word's longest): each character
 * adds four patterns, and a typo further on leaves a prefix that few terms share.
 */
const TYPO_LENGTH = MAX_WORD_LENGTH;
/**
 * When that finds too little, a second typo may be further on: the typo pass is run again on the query's first
 * this many characters, which start a few dozen terms at most for the ranking to measure against the whole query.
 */
const TYPO_HEAD_LENGTH = 8;
/** Terms each pattern of the typo pass offers at most, from the terms' starts and from words inside them each. */
const TYPO_PREFIX_CANDIDATES = 30;

/**
 * The query with one typo undone, as prefix patterns: each letter dropped (a
 * doubled or extra letter), each pair of neighbours swapped, and, after the
 * first letter, each letter replaced by a wildcard (a wrong one) and a wildcard
 * put in each gap (a dropped one). A wildcard never starts a pattern, so each
 * is a range of a sorted array from its literal start.
 */
export function typoPrefixPatterns(query: string): TypoPattern[] {
  const chars = [...query];
  const at = (from: number, to?: number) => chars.slice(from, to).join('');
  const patterns = new Map<string, TypoPattern>();
  const add = (pattern: TypoPattern) => patterns.set(JSON.stringify(pattern), pattern);
  for (let i = 0; i < chars.length; i++) {
    add({ before: `${at(0, i)}${at(i + 1)}` });
    if (i + 1 < chars.length) add({ before: `${at(0, i)}${chars[i + 1]}${chars[i]}${at(i + 2)}` });
    if (i > 0) {
      add({ before: at(0, i), after: at(i + 1) });
      add({ before: at(0, i), after: at(i) });
    }
  }
  patterns.delete(JSON.stringify({ before: query }));
  return [...patterns.values()].filter((pattern) => pattern.before !== '');
}

/**
 * The query with its first letter wrong or dropped: the typos a prefix
 * pattern cannot undo, which the trigram pass of fuzzy search finds by the
 * query's other trigrams ("iabet" shares three of its six with "diabetes").
 * In memory the leading wildcard costs a binary search per distinct first
 * character (TermTable), not a read of every term as a B-tree range would.
 */
const firstLetterPatterns = (query: string): TypoPattern[] => [
  { before: '', after: [...query].slice(1).join('') },
  { before: '', after: query },
];

/** The terms that start with the query, the first PREFIX_CANDIDATES in term order: a partial word's completions. */
const completions = (table: TermTable, query: string) => table.termsMatching({ before: query }, PREFIX_CANDIDATES);

/** How many concepts the completions of the query name (see suggestMatches' `completedElsewhere`). */
export const completedConcepts = (table: TermTable, text: string): number =>
  new Set(completions(table, boundedQuery(text)).map((term) => table.pk(term))).size;

/**
 * Type-ahead over one vocabulary's terms in memory (TermTable), with the
 * candidates the SQL passes gave before it (docs/SEARCH.md, "Type-ahead"):
 * 1. the terms that start with the query, the first PREFIX_CANDIDATES in term
 *    order: a partial word's completions;
 * 2. from MIN_FUZZY_LENGTH characters on, when the completions name fewer
 *    than `limit` concepts, the terms with a word inside that starts with
 *    the query, as many (a part match: "alzheimer" in "dementia, alzheimer
 *    type");
 * 3. then the typo pass: typoPrefixPatterns and firstLetterPatterns of the
 *    query's first TYPO_LENGTH characters, each the first
 *    TYPO_PREFIX_CANDIDATES at term starts and as many at words inside terms
 *    ("mneing" for "meningitis", "metfromin" for "metformin", "xiabet" for
 *    "diabetes");
 * 4. when the list is still short and the query longer than
 *    TYPO_HEAD_LENGTH characters, the typo pass again on those characters,
 *    with them as typed: a second typo further on.
 * Ranked by the search's own key, in which an exact prefix costs less than a
 * typo and a shorter term wins among equal prefixes (fuzzy-rank.ts). The best
 * `limit`, best first. `completedElsewhere`: how many concepts other
 * vocabularies' completions name (completedConcepts), when their lists are
 * merged with this one by the same key: completions of any vocabulary rank
 * before part matches and typos of every one.
 */
export function suggestMatches(table: TermTable, text: string, limit: number, completedElsewhere = 0): RankedMatch[] {
  const query = boundedQuery(text);
  const chars = [...query];
  const prefixes = new Set(completions(table, query));
  const others = new Set<number>();
  const conceptsFound = () => completedElsewhere + new Set([...prefixes, ...others].map((term) => table.pk(term))).size;
  const add = (patterns: TypoPattern[], cap: number) => {
    for (const pattern of patterns) {
      for (const term of table.termsMatching(pattern, cap)) others.add(term);
      for (const term of table.wordsMatching(pattern, cap)) others.add(term);
    }
  };
  const typoPatterns = (typed: string) => [...typoPrefixPatterns(typed), ...firstLetterPatterns(typed)];
  // A completion of the query as typed costs less than any part match or typo (fuzzy-rank.ts): when completions,
  // here and in the vocabularies merged with this one, name `limit` concepts, nothing else can enter the list.
  if (chars.length >= MIN_FUZZY_LENGTH && conceptsFound() < limit) {
    for (const term of table.wordsMatching({ before: query }, PREFIX_CANDIDATES)) others.add(term);
    add(typoPatterns(chars.slice(0, TYPO_LENGTH).join('')), TYPO_PREFIX_CANDIDATES);
    if (chars.length > TYPO_HEAD_LENGTH && conceptsFound() < limit) {
      const head = chars.slice(0, TYPO_HEAD_LENGTH).join('');
      add([{ before: head }, ...typoPatterns(head)], TYPO_PREFIX_CANDIDATES);
    }
  }
  const similarity = new TrigramSimilarity(query);
  const candidate = (term: number, similarity: (text: string) => number): FuzzyCandidate => {
    const text = table.term(term);
    return { pk: table.pk(term), term: text, isName: table.isName(term), similarity: similarity(text) };
  };
  const candidates = [
    // A prefix shares all of the query's trigrams that do not end its last word; the edit distances decide.
    ...[...prefixes].map((term) => candidate(term, () => 1)),
    // Elsewhere, how much of the query's text the term shares, as pg_trgm's similarity gave the trigram pass.
    ...[...others].filter((term) => !prefixes.has(term)).map((term) => candidate(term, (text) => similarity.of(text, table.trigramCount(term)))),
  ];
  return rankMatches(query, candidates)
    .sort((a, b) => compareKeys(a.key, b.key) || Number(a.pk) - Number(b.pk))
    .slice(0, limit);
}
