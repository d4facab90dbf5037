import { escapeLiteral } from 'pg';
import { allowedTypos } from './edit-distance';
import type { FuzzyCandidate } from './fuzzy-rank';
import { runSearchStatement, type SearchDb } from './search-statement';
import type { TermIndex } from './term-index';
import { distinctTrigramCount } from './trigrams';

/** In the first pass, queries of this many words at most also match parts of longer terms ("alzhiemer"). */
const MAX_WORDS_FOR_PART_MATCH = 1;

export interface CandidateFilter {
  similarity: number;
  /** Only whole terms this long (the wide pass: within the allowed typos of the query's length). */
  length?: { min: number; max: number };
  /** Absent: no part matching (a query of several words, or the wide pass). */
  wordSimilarity?: number;
  /**
   * Also the first PREFIX_CANDIDATES terms in pattern order that match this LIKE pattern (the query's own prefix
   * pattern, like-pattern.ts), from the B-tree `<terms>_prefix`: what the query begins, which no typo pass bounds.
   */
  prefix?: string;
}

/** Terms that start with the query, at most, for a filter's `prefix`: the ranking puts the shortest first. */
export const PREFIX_CANDIDATES = 200;

/**
 * Trigram thresholds of the two candidate passes. A typo makes at most four
 * new trigrams (a swap of neighbours), so a term k typos from the query shares
 * at least T-4k of the query's T different trigrams and has at most 4k others:
 * similarity >= (T-4k)/(T+4k). The
 * first pass uses a tight threshold (never below 0.4) that is fast and finds
 * nearly every misspelling; the second, only when the first found no whole
 * term within the allowed typos, goes down to that worst-case bound.
 */
/** The least trigram similarity of a term `typos` typos from the query (never below 0.1): see candidateFilter. */
export function similarityBound(query: string, typos: number): number {
  const t = distinctTrigramCount(query);
  // pg_trgm compares its similarity, a float4, with the threshold: rounded down, the bound itself passes (7/23 as a
  // float4 is below 7/23 as a double, and "ksull neoplsam" found no "skull neoplasm").
  return Math.max(0.1, Math.floor((10_000 * (t - 4 * typos)) / (t + 4 * typos)) / 10_000);
}

/**
 * The lengths of whole terms `typos` typos from the query. Each typo changes the length by one, but a dropped
 * one-letter word at either end takes its space along when the query is trimmed ("x chromosome, trisomy xp3" typed
 * as " chromosome, risomy xp3").
 */
export const lengthWindow = (query: string, typos: number) => ({ min: query.length - typos, max: query.length + typos + 1 });

/** The loose pass's least similarity: below it, whole-term and part matches would take too many terms. */
export const LOOSE_SIMILARITY = 0.4;

export function candidateFilter(query: string, pass: 0 | 1): CandidateFilter {
  const typos = allowedTypos(query);
  const bound = similarityBound(query, typos);
  if (pass === 1) return { similarity: Math.min(LOOSE_SIMILARITY, bound), length: lengthWindow(query, typos) };
  const similarity = Math.max(LOOSE_SIMILARITY, Math.min(0.8, bound));
  // Part matches of several words would take every term that shares one common word ("syndrome").
  const words = query.split(/\s+/).filter(Boolean).length;
  return words > MAX_WORDS_FOR_PART_MATCH ? { similarity } : { similarity, wordSimilarity: LOOSE_SIMILARITY };
}

/**
 * The candidate search: the settings it runs with and the SELECT of names and
 * synonyms similar to the query, from the trigram GIN index of the vocabulary's
 * terms table (disease_terms, drug_terms: term-index.ts):
 * `%` (whole-term similarity) and `<%` (the query against the most similar
 * part of a longer term). The query is bounded (boundedQuery) by the caller.
 *
 * The planner may never read every term (runSearchStatement also turns
 * sequential scans off). The terms are chosen in a MATERIALIZED CTE, on their
 * own: joined to the diseases in one query, a walk of disease_terms' primary
 * key, ordered by disease, was useful to the join, so for a random 200-letter
 * query the planner walked it from end to end, testing `%` and `<%` on every
 * term (two orders of magnitude slower; disease-search-plans.spec.ts holds the plan).
 *
 * The diseases' lower-cased names, which only an order by name needs, come
 * from a primary-key lookup per candidate, in a scalar subquery: as fast as a
 * hash join even for the 18k candidates of "a" on the CTD set, and never a
 * read of every disease. A join could be planned otherwise whenever the
 * estimates suggest it: a hash or merge of the whole diseases table for a
 * loose query, or, with hash and merge joins off and the fixed estimate of
 * `%` that 0005-term-statistics brings, a walk of the diseases' whole primary
 * key (no less database CPU for any query, and unstable).
 */
export function candidateStatements(
  index: TermIndex,
  query: string,
  filter: CandidateFilter,
  withNameKeys: boolean,
): { settings: string[]; select: string } {
  const term = escapeLiteral(query);
  // A whole term is also the most similar part of itself, and word similarity divides by the query's trigrams alone
  // where similarity divides by both strings': a term at the similarity threshold is at least as word-similar. So
  // when the word threshold is no higher, `<%` alone finds both, in one scan of the index instead of two (single-word
  // queries spend markedly less database time: the bench's `fuzzy search` measures it).
  const partsOnly = filter.wordSimilarity !== undefined && filter.wordSimilarity <= filter.similarity;
  const match = partsOnly
    ? `${term} <% t.term`
    : `(t.term % ${term}${filter.wordSimilarity === undefined ? '' : ` OR ${term} <% t.term`})`;
  return {
    settings: [
      ...(partsOnly ? [] : [`SET LOCAL pg_trgm.similarity_threshold = ${Number(filter.similarity)}`]),
      ...(filter.wordSimilarity === undefined ? [] : [`SET LOCAL pg_trgm.word_similarity_threshold = ${Number(filter.wordSimilarity)}`]),
    ],
    select: `
  WITH candidates AS MATERIALIZED (
    SELECT t.${index.owner} AS pk, t.term, t.is_name, similarity(t.term, ${term}) AS similarity
      FROM ${index.terms} t
     WHERE ${match}
       ${filter.length ? `AND length(t.term) BETWEEN ${Number(filter.length.min)} AND ${Number(filter.length.max)}` : ''}
    ${
      filter.prefix === undefined
        ? ''
        : `UNION ALL
    (SELECT t.${index.owner}, t.term, t.is_name, similarity(t.term, ${term}) FROM ${index.terms} t
      WHERE t.term LIKE ${escapeLiteral(filter.prefix)} ORDER BY t.term USING ~<~ LIMIT ${PREFIX_CANDIDATES})`
    }
  )
  SELECT c.pk::text, ${withNameKeys ? `(SELECT lower(d.name) FROM ${index.owners} d WHERE d.id = c.pk)` : 'NULL'} AS name_key,
         c.term, c.is_name, c.similarity
    FROM candidates c`,
  };
}

/** The candidates of one of the two loose passes (candidateFilter). */
export function fuzzyCandidates(db: SearchDb, index: TermIndex, query: string, pass: 0 | 1, withNameKeys: boolean): Promise<FuzzyCandidate[]> {
  return candidatesMatching(db, index, query, candidateFilter(query, pass), withNameKeys);
}

export async function candidatesMatching(
  db: SearchDb,
  index: TermIndex,
  query: string,
  filter: CandidateFilter,
  withNameKeys: boolean,
): Promise<FuzzyCandidate[]> {
  const { settings, select } = candidateStatements(index, query, filter, withNameKeys);
  const rows = await runSearchStatement<{ pk: string; name_key: string | null; term: string; is_name: boolean; similarity: number }>(
    db,
    settings,
    select,
  );
  return rows.map((row) => ({
    pk: row.pk,
    nameKey: row.name_key ?? undefined,
    term: row.term,
    isName: row.is_name,
    similarity: row.similarity,
  }));
}
