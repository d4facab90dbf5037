import { QueryTypes, type Sequelize } from 'sequelize';
import { pageSize } from '@libs/cursor';
import { isValueSetName, REFERENCE_LIMITS, VALUE_SETS, type catalogueV1, type ValueSetName } from '@libs/contracts';
import { RpcError } from '@libs/grpc';
import { foldText, MIN_SUGGEST_LENGTH, prefixPattern } from '@libs/reference-db';
import { LINE_TEXT } from '@libs/safe-text';

/**
 * How one value set's members are read: its table (alias `c`), the code it
 * carries (members are the rows that have one), its order's tie-breaker, and
 * which rows a filter matches ($1 a term's prefix, $2 a later word's prefix).
 */
interface Members {
  table: string;
  code: string;
  id: string;
  /** The filter as the terms are stored: disease terms are lower-cased, drug terms folded (accents) too. */
  normalise(filter: string): string;
  matches: string;
}

const lower = (filter: string) => filter.trim().toLowerCase();
/** Diseases and drugs: through their terms tables (names, synonyms, brands, ingredients), by the prefix B-tree and trigram index. */
const byTerms = (terms: string, owner: string) =>
  `c.id IN (SELECT t.${owner} FROM ${terms} t WHERE t.term LIKE $1 OR t.term LIKE $2)`;
/** The small tables (a few thousand rows at most) are scanned. */
const BY_NAME = 'lower(c.name) LIKE $1 OR lower(c.name) LIKE $2';

const MEMBERS: Record<ValueSetName, Members> = {
  diseases: { table: 'diseases', code: 'disease_id', id: 'id', normalise: lower, matches: byTerms('disease_terms', 'disease_pk') },
  drugs: { table: 'drugs', code: 'drugbank_id', id: 'id', normalise: foldText, matches: byTerms('drug_terms', 'drug_pk') },
  labs: { table: 'lab_tests', code: 'loinc', id: 'id', normalise: lower, matches: BY_NAME },
  conditions: { table: 'conditions', code: 'doid', id: 'id', normalise: lower, matches: BY_NAME },
  categories: { table: 'drug_categories', code: 'code', id: 'code', normalise: lower, matches: BY_NAME },
};

function checkedFilter(filter: string): string {
  if (filter.length > REFERENCE_LIMITS.termMaxLength) throw RpcError.invalidArgument('filter', `must be at most ${REFERENCE_LIMITS.termMaxLength} characters`);
  if (!LINE_TEXT.accepts(filter)) throw RpcError.invalidArgument('filter', LINE_TEXT.message);
  const trimmed = filter.trim();
  if (trimmed !== '' && [...trimmed].length < MIN_SUGGEST_LENGTH) throw RpcError.invalidArgument('filter', `must be at least ${MIN_SUGGEST_LENGTH} characters`);
  return trimmed;
}

function checkedOffset(offset: number): number {
  const { max } = REFERENCE_LIMITS.expandOffset;
  if (!Number.isInteger(offset) || offset < 0 || offset > max) throw RpcError.invalidArgument('offset', `must be an integer from 0 to ${max}`);
  return offset;
}

/**
 * ValueSet/$expand (docs/REFERENCE.md, "FHIR terminology"): the matches in one
 * total order (lower-cased name, then id: the `<table>_name_order` index of
 * diseases and drugs), so that offset paging with a filter neither repeats nor
 * skips a concept; the total is counted by the same condition.
 */
export function valueSetHandlers(sequelize: Sequelize) {
  return {
    async expandValueSet(request: catalogueV1.ExpandValueSetRequest): Promise<catalogueV1.ExpandValueSetResponse> {
      if (!isValueSetName(request.valueSet)) throw RpcError.invalidArgument('url', `must name one of the value sets: ${Object.keys(VALUE_SETS).join(', ')}`);
      const members = MEMBERS[request.valueSet];
      const filter = checkedFilter(request.filter);
      const offset = checkedOffset(request.offset);
      const count = pageSize(request.count, REFERENCE_LIMITS.expandCount, 'count');
      const term = filter === '' ? undefined : prefixPattern(members.normalise(filter));
      const where = `c.${members.code} IS NOT NULL${term ? ` AND (${members.matches})` : ''}`;
      const bind = term ? [term, `% ${term}`] : [];
      const n = bind.length;
      const [totals, concepts] = await Promise.all([
        sequelize.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${members.table} c WHERE ${where}`, { bind, type: QueryTypes.SELECT }),
        sequelize.query<catalogueV1.ValueSetConcept>(
          `SELECT c.${members.code} AS code, c.name AS display FROM ${members.table} c WHERE ${where}
            ORDER BY lower(c.name), c.${members.id} OFFSET $${n + 1} LIMIT $${n + 2}`,
          { bind: [...bind, offset, count], type: QueryTypes.SELECT },
        ),
      ]);
      return { total: totals[0].total, concepts };
    },
  };
}
