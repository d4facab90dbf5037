import type { Sequelize, Transaction } from 'sequelize';
import type { LabTestRecord } from '../records';
import { upsertRows } from './upsert-rows';

/** Inserts or updates laboratory tests by their source id. */
export async function upsertLabTests(sequelize: Sequelize, tests: LabTestRecord[], transaction: Transaction): Promise<void> {
  const rows = tests.map((t) => ({
    source_id: t.sourceId,
    loinc: t.loinc ?? null,
    name: t.name,
    category_name: t.categoryName,
    sub_category_name: t.subCategoryName,
    normal_range: t.normalRange,
    units: t.units,
    description: t.description ?? '',
    methodology: t.methodology ?? '',
    duration: t.duration ?? '',
    test_results: t.testResults ?? [],
  }));
  await upsertRows(
    sequelize,
    {
      table: 'lab_tests',
      key: 'source_id',
      columns: {
        source_id: 'text', loinc: 'text', name: 'text', category_name: 'text', sub_category_name: 'text',
        normal_range: 'text', units: 'text', description: 'text', methodology: 'text', duration: 'text',
        test_results: 'jsonb',
      },
      keepWhenBlank: ['description', 'methodology', 'duration'],
    },
    rows,
    transaction,
  );
}
