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
  /** Diseases and drugs: the terms table (names, synonyms, brands, ingredients) and its column naming the concept. */
  terms?: { table: string; owner: string };
}

const lower = (filter: string) => filter.trim().toLowerCase();
/** The small tables (a few thousand rows at most) are scanned. */
const BY_NAME = 'lower(c.name) LIKE $1 OR lower(c.name) LIKE $2';

const MEMBERS: Record<ValueSetName, Members> = {
  diseases: { table: 'diseases', code: 'disease_id', id: 'id', normalise: lower, terms: { table: 'disease_terms', owner: 'disease_pk' } },
  drugs: { table: 'drugs', code: 'drugbank_id', id: 'id', normalise: foldText, terms: { table: 'drug_terms', owner: 'drug_pk' } },
  labs: { table: 'lab_tests', code: 'loinc', id: 'id', normalise: lower },
  conditions: { table: 'conditions', code: 'doid', id: 'id', normalise: lower },
  categories: { table: 'drug_categories', code: 'code', id: 'code', normalise: lower },
};

/**
 * The total and the page's SELECTs ($3 the offset, $4 the count). With a
 * filter on a terms table, the matching concepts are chosen first, from the
 * prefix B-tree and the trigram index (`term LIKE 'dia%' OR term LIKE '% dia%'`),
 * in a MATERIALIZED CTE, and each is read by its primary key (a scalar
 * subquery, a LATERAL one kept from being pulled up by OFFSET 0): joined in one
 * query, the planner overestimated the matches of a common prefix and read the
 * whole concepts table (a hash join on a sequential scan, or a walk of the name
 * order checking each concept's terms: "dia", 207 of 11,865 CTD diseases, took
 * 264 and 110 ms at the database under load, 14 the way it is now;
 * value-set-plans.spec.ts holds the plans to the indexes).
 */
function statements(members: Members, filtered: boolean): { total: string; page: string } {
  const { table, code, id, terms } = members;
  if (filtered && terms) {
    const matched = `WITH matched AS MATERIALIZED (SELECT DISTINCT t.${terms.owner} AS id FROM ${terms.table} t WHERE t.term LIKE $1 OR t.term LIKE $2)`;
    return {
      total: `${matched} SELECT count(*)::int AS total FROM matched m WHERE (SELECT c.${code} IS NOT NULL FROM ${table} c WHERE c.${id} = m.id)`,
      page: `${matched} SELECT c.code, c.display FROM matched m CROSS JOIN LATERAL (
          SELECT c.${code} AS code, c.name AS display, lower(c.name) AS name_key FROM ${table} c WHERE c.${id} = m.id AND c.${code} IS NOT NULL OFFSET 0
        ) c ORDER BY c.name_key, m.id OFFSET $3 LIMIT $4`,
    };
  }
  const where = `c.${code} IS NOT NULL${filtered ? ` AND (${BY_NAME})` : ''}`;
  const n = filtered ? 2 : 0;
  return {
    total: `SELECT count(*)::int AS total FROM ${table} c WHERE ${where}`,
    page: `SELECT c.${code} AS code, c.name AS display FROM ${table} c WHERE ${where} ORDER BY lower(c.name), c.${id} OFFSET $${n + 1} LIMIT $${n + 2}`,
  };
}

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
      const bind = term ? [term, `% ${term}`] : [];
      const { total, page } = statements(members, term !== undefined);
      const [totals, concepts] = await Promise.all([
        sequelize.query<{ total: number }>(total, { bind, type: QueryTypes.SELECT }),
        sequelize.query<catalogueV1.ValueSetConcept>(page, { bind: [...bind, offset, count], type: QueryTypes.SELECT }),
      ]);
      return { total: totals[0].total, concepts };
    },
  };
}
