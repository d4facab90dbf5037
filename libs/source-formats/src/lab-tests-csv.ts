import { readConverted } from './delimited';
import type { ParsedRow, ReadOptions } from './text-lines';

/** One laboratory test of the project's documented CSV layout (docs/IMPORT.md). */
export interface LabTestRow {
  loinc: string;
  name: string;
  category: string;
  subcategory: string;
  normalRange: string;
  units: string;
  description: string;
  methodology: string;
  duration: string;
  results: { name: string; normalRange: string; units: string }[];
}

export const LAB_TEST_COLUMNS = [
  'loinc', 'name', 'category', 'subcategory', 'normal_range', 'units', 'description', 'methodology', 'duration', 'results',
] as const;

/** `results`: components split by ";", each `name|normal range|units`. */
function parseResults(field: string): LabTestRow['results'] | string {
  if (!field) return [];
  const results: LabTestRow['results'] = [];
  for (const component of field.split(';')) {
    const parts = component.split('|').map((part) => part.trim());
    if (parts.length !== 3 || !parts[0]) return `results: "${component}" is not name|normal range|units`;
    results.push({ name: parts[0], normalRange: parts[1], units: parts[2] });
  }
  return results;
}

function toLabTest(r: Record<(typeof LAB_TEST_COLUMNS)[number], string>): LabTestRow | string {
  const results = parseResults(r.results);
  if (!r.name || !r.category) return 'name and category are required';
  if (r.loinc && !/^\d{1,7}-\d$/.test(r.loinc)) return `malformed LOINC code ${JSON.stringify(r.loinc)}`;
  if (typeof results === 'string') return results;
  return {
    loinc: r.loinc, name: r.name, category: r.category, subcategory: r.subcategory, normalRange: r.normal_range,
    units: r.units, description: r.description, methodology: r.methodology, duration: r.duration, results,
  };
}

/** Lab tests from CSV with the header of LAB_TEST_COLUMNS. */
export function readLabTestsCsv(path: string, options: ReadOptions = {}): AsyncGenerator<ParsedRow<LabTestRow>> {
  return readConverted(path, LAB_TEST_COLUMNS, { ...options, delimiter: ',', quoted: true }, toLabTest);
}
