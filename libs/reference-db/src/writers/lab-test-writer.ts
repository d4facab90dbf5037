import type { Sequelize, Transaction } from 'sequelize';
import type { LabTestRecord } from '../records';
import { rebuildLabTestTerms } from './catalogue-terms-writer';
import { catalogueTable } from './table';
import { upsertRecords } from './upsert-records';

const LAB_TESTS = catalogueTable<LabTestRecord>({
  table: 'lab_tests',
  key: 'source_id',
  columns: {
    source_id: 'text', loinc: 'text', name: 'text', category_name: 'text', sub_category_name: 'text',
    normal_range: 'text', units: 'text', description: 'text', methodology: 'text', duration: 'text',
    test_results: 'jsonb',
  },
  nullable: ['loinc'],
  keepWhenBlank: ['description', 'methodology', 'duration'],
});

/** Inserts or updates laboratory tests by their source id, and rebuilds their type-ahead terms. */
export async function upsertLabTests(sequelize: Sequelize, tests: LabTestRecord[], transaction: Transaction): Promise<void> {
  const written = await upsertRecords(sequelize, LAB_TESTS, tests, transaction);
  await rebuildLabTestTerms(sequelize, written.map((row) => row.id), transaction);
}
