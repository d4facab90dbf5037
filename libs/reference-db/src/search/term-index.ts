/**
 * A vocabulary the fuzzy search runs over: a table of lower-cased terms (names
 * and synonyms, or a drug's names, salt-free forms, ingredients and brands),
 * each row naming its concept by primary key and saying whether it is the
 * concept's own name. Each terms table carries the same indexes: a pg_trgm
 * GIN index (`<terms>_trgm`), a B-tree on the term in pattern order for exact
 * terms and prefixes (`<terms>_prefix`) and one on its length
 * (`<terms>_length`), so every vocabulary is searched with the
 * same plans and bounds (docs/SEARCH.md).
 */
export interface TermIndex {
  /** Its dataset's name in dataset_versions, which the terms in memory (TermTables) are kept by. */
  dataset: Vocabulary;
  /** The terms table: (<owner>, term, is_name). */
  terms: string;
  /** Its column naming the concept. */
  owner: string;
  /** The concepts' table, with `id` and `name`. */
  owners: string;
}

export type Vocabulary = 'diseases' | 'drugs' | 'labs' | 'conditions';

export const DISEASE_TERMS: TermIndex = { dataset: 'diseases', terms: 'disease_terms', owner: 'disease_pk', owners: 'diseases' };
export const DRUG_TERMS: TermIndex = { dataset: 'drugs', terms: 'drug_terms', owner: 'drug_pk', owners: 'drugs' };
export const LAB_TEST_TERMS: TermIndex = { dataset: 'labs', terms: 'lab_test_terms', owner: 'lab_test_pk', owners: 'lab_tests' };
export const CONDITION_TERMS: TermIndex = { dataset: 'conditions', terms: 'condition_terms', owner: 'condition_pk', owners: 'conditions' };

/** Every vocabulary's terms table, by its dataset. */
export const VOCABULARIES: Readonly<Record<Vocabulary, TermIndex>> = { diseases: DISEASE_TERMS, drugs: DRUG_TERMS, labs: LAB_TEST_TERMS, conditions: CONDITION_TERMS };
