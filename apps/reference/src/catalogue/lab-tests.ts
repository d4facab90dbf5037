import type { Sequelize } from 'sequelize';
import { isTextPair, keysetPage, type CursorCodec } from '@libs/cursor';
import { catalogueV1, REFERENCE_LIMITS } from '@libs/contracts';
import { selectByName, nameKeyOf, type NameKey } from './by-name';
import { normaliseTerms } from './request-checks';
import { anyContains } from './sql-params';

interface LabTestRow {
  loinc: string | null;
  name: string;
  normal_range: string;
  units: string;
  category_name: string;
  sub_category_name: string;
  description: string;
  methodology: string;
  duration: string;
  test_results: catalogueV1.LabTestResult[];
}

export function labTestHandlers(sequelize: Sequelize, cursors: CursorCodec) {
  return {
    async searchLabTests(request: catalogueV1.SearchLabTestsRequest): Promise<catalogueV1.SearchLabTestsResponse> {
      const terms = normaliseTerms('n', request.terms);
      const page = await keysetPage({
        cursors,
        cursor: request.cursor,
        query: { labs: terms },
        limit: REFERENCE_LIMITS.labTestPage,
        isPosition: isTextPair,
        positionOf: nameKeyOf,
        fetch: (after: NameKey | undefined, limit) =>
          selectByName<LabTestRow>(sequelize, {
            table: 'lab_tests',
            columns: `t.loinc, t.name, t.normal_range, t.units, t.category_name, t.sub_category_name, t.description,
                      t.methodology, t.duration, t.test_results`,
            where: (params) => anyContains(params, 't.search_text', terms),
            after,
            limit,
          }),
      });
      return {
        tests: page.rows.map((row) => ({
          id: row.id,
          loinc: row.loinc ?? '',
          name: row.name,
          normalRange: row.normal_range,
          units: row.units,
          categoryName: row.category_name,
          subCategoryName: row.sub_category_name,
          description: row.description,
          methodology: row.methodology,
          duration: row.duration,
          testResults: row.test_results,
        })),
        nextCursor: page.nextCursor,
      };
    },
  };
}
