import { labTestSourceId, upsertLabTests, type LabTestRecord } from '@libs/reference-db';
import { readLabTestsCsv, type LabTestRow } from '@libs/source-formats';
import type { ImportSource } from '../import-source';

const toRecord = (row: LabTestRow): LabTestRecord => ({
  sourceId: labTestSourceId({ name: row.name, loinc: row.loinc || undefined }),
  loinc: row.loinc || undefined,
  name: row.name,
  categoryName: row.category,
  subCategoryName: row.subcategory,
  normalRange: row.normalRange,
  units: row.units,
  description: row.description,
  methodology: row.methodology,
  duration: row.duration,
  testResults: row.results,
});

export const labsSource: ImportSource<LabTestRow> = {
  name: 'labs',
  describe: 'laboratory tests, CSV in the layout of docs/IMPORT.md',
  read: readLabTestsCsv,
  key: (row) => toRecord(row).sourceId,
  write: (sequelize, rows, transaction) => upsertLabTests(sequelize, rows.map(toRecord), transaction),
};
