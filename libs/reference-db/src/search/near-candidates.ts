import { PREFIX_CANDIDATES, type CandidateFilter } from './fuzzy-candidates';
import type { FuzzyCandidate } from './fuzzy-rank';
import type { TermTable } from './term-table';
import { TrigramSimilarity } from './trigrams';

/**
 * The candidates of fuzzy search's near pass (fuzzy-search.ts, nearFilter) from a vocabulary's terms in memory:
 * what candidatesMatching selects from the database for the same filter, found without the trigram index's scan,
 * which was most of a typical search's time (docs/SEARCH.md, "Fuzzy search"). Whole terms within the length window
 * at the similarity bound (TermTable.similarTerms, pg_trgm's `%` and its float4 similarity), and the first
 * PREFIX_CANDIDATES terms the query begins, in the B-tree's order; apps/reference/src/diseases/near-pass.spec.ts holds
 * the pages of both to the same. A concept's name key, for an order by name, is its name lower-cased as JavaScript does, the same on every
 * page of a walk.
 */
export function nearCandidates(
  table: TermTable,
  query: string,
  filter: Required<Pick<CandidateFilter, 'similarity' | 'length'>>,
  withNameKeys: boolean,
): FuzzyCandidate[] {
  const candidate = (term: number, similarity: number): FuzzyCandidate => {
    const pk = table.pk(term);
    return {
      pk,
      nameKey: withNameKeys ? table.nameOf(pk)?.toLowerCase() : undefined,
      term: table.term(term),
      isName: table.isName(term),
      similarity,
    };
  };
  const similar = table.similarTerms(query, filter.similarity, filter.length).map(({ term, similarity }) => candidate(term, similarity));
  const prefixes = table.termsMatching({ before: query }, PREFIX_CANDIDATES);
  const trigrams = new TrigramSimilarity(query);
  return [...similar, ...prefixes.map((term) => candidate(term, trigrams.of(table.term(term), table.trigramCount(term))))];
}
