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
  /** The terms table: (<owner>, term, is_name). */
  terms: string;
  /** Its column naming the concept. */
  owner: string;
  /** The concepts' table, with `id` and `name`. */
  owners: string;
}

export const DISEASE_TERMS: TermIndex = { terms: 'disease_terms', owner: 'disease_pk', owners: 'diseases' };
export const DRUG_TERMS: TermIndex = { terms: 'drug_terms', owner: 'drug_pk', owners: 'drugs' };
export const LAB_TEST_TERMS: TermIndex = { terms: 'lab_test_terms', owner: 'lab_test_pk', owners: 'lab_tests' };
export const CONDITION_TERMS: TermIndex = { terms: 'condition_terms', owner: 'condition_pk', owners: 'conditions' };
