/**
 * Disease search over the reference schema: the keyset listing, exact match
 * and the typo-tolerant search (see docs/SEARCH.md). Shared by the reference
 * service and the benchmark's single-process baseline, so both run the same SQL.
 */
export {
  diseasesByPk,
  listDiseases,
  type DiseaseFields,
  type DiseaseKey,
  type DiseaseListing,
  type DiseaseName,
  type DiseaseRow,
  type ListOrder,
} from './disease-store';
export { FUZZY_PASSES, FUZZY_RANKING, fuzzyPage, type FuzzyOrder, type FuzzyPass, type FuzzyPosition } from './fuzzy-search';
export { CONDITION_TERMS, DISEASE_TERMS, DRUG_TERMS, LAB_TEST_TERMS, VOCABULARIES, type TermIndex, type Vocabulary } from './term-index';
export { completedConcepts, MIN_SUGGEST_LENGTH, suggestMatches } from './suggest';
export { prefixPattern } from './like-pattern';
export { TermTables } from './term-tables';
export { compareKeys, type RankedMatch } from './fuzzy-rank';
export { MAX_QUERY_WORDS, MAX_WORD_LENGTH } from './query-bounds';
export { DEFAULT_SEARCH_STATEMENT_TIMEOUT_MS, SearchTimeoutError, type SearchDb } from './search-statement';
