import { QueryTypes, type Sequelize } from 'sequelize';
import { isText, keysetPage, type CursorCodec } from '@libs/cursor';
import { REFERENCE_LIMITS, type catalogueV1 } from '@libs/contracts';
import { normaliseTerms } from './request-checks';
import { containsPattern, SqlParams } from './sql-params';
import { stripHtml } from './strip-html';

export interface CategoryRow {
  code: string;
  name: string;
  level: number;
  parent_code: string | null;
}

export const CATEGORY_COLUMNS = 'c.code, c.name, c.level, c.parent_code';

/** Text leaves without HTML (docs/REFERENCE.md, Drug categories), whichever source it came from. */
export const toCategory = (row: CategoryRow, drugs: catalogueV1.DrugSummary[] = []): catalogueV1.DrugCategory => ({
  code: row.code,
  name: stripHtml(row.name),
  level: row.level,
  parentCode: row.parent_code ?? '',
  drugs: drugs.map((d) => ({ ...d, name: stripHtml(d.name) })),
});

/** A term matches a category whose code it is, or whose name holds it. */
function selectCategories(sequelize: Sequelize, terms: string[], after: string | undefined, limit: number) {
  const params = new SqlParams();
  const where: string[] = [];
  if (terms.length > 0) {
    const codes = params.add(terms.map((t) => t.toUpperCase()));
    const names = terms.map((t) => `c.name ILIKE ${params.add(containsPattern(t))}`);
    where.push(`(c.code = ANY(${codes}::text[]) OR ${names.join(' OR ')})`);
  }
  if (after !== undefined) where.push(`c.code > ${params.add(after)}`);
  return sequelize.query<CategoryRow>(
    `SELECT ${CATEGORY_COLUMNS} FROM drug_categories c ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY c.code LIMIT ${params.add(limit)}`,
    { bind: params.values, type: QueryTypes.SELECT },
  );
}

/** Drugs with an ATC code inside each of the given groups, by name. */
async function drugsIn(sequelize: Sequelize, codes: string[]): Promise<Map<string, catalogueV1.DrugSummary[]>> {
  const rows = await sequelize.query<catalogueV1.DrugSummary & { code: string }>(
    `SELECT DISTINCT g.code, d.id::text AS id, d.name, coalesce(d.drugbank_id, '') AS "drugbankId", lower(d.name) AS sort_name
       FROM unnest($1::text[]) AS g(code)
       JOIN drug_atc_codes a ON a.atc_code LIKE g.code || '%'
       JOIN drugs d ON d.id = a.drug_pk
      ORDER BY g.code, lower(d.name), id`,
    { bind: [codes], type: QueryTypes.SELECT },
  );
  const byCode = new Map<string, catalogueV1.DrugSummary[]>();
  for (const { code, id, name, drugbankId } of rows) {
    byCode.set(code, [...(byCode.get(code) ?? []), { id, name, drugbankId }]);
  }
  return byCode;
}

export function categoryHandlers(sequelize: Sequelize, cursors: CursorCodec) {
  return {
    async listDrugCategories(
      request: catalogueV1.ListDrugCategoriesRequest,
    ): Promise<catalogueV1.ListDrugCategoriesResponse> {
      const terms = normaliseTerms('c', request.terms);
      const page = await keysetPage({
        cursors,
        cursor: request.cursor,
        query: { categories: terms },
        limit: REFERENCE_LIMITS.categoryPage,
        isPosition: isText,
        positionOf: (row: CategoryRow) => row.code,
        fetch: (after: string | undefined, limit) => selectCategories(sequelize, terms, after, limit),
      });
      const drugs = request.includeDrugs ? await drugsIn(sequelize, page.rows.map((c) => c.code)) : new Map();
      return {
        categories: page.rows.map((row) => toCategory(row, drugs.get(row.code))),
        nextCursor: page.nextCursor,
      };
    },
  };
}
