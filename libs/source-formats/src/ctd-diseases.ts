import { DISEASE, type DiseaseRecord, type Field } from '@libs/contracts';
import { readDelimited } from './delimited';
import { openTextLines, type ParsedRow, type ReadOptions } from './text-lines';

/** The CTD MEDIC vocabulary's columns (CTD_diseases.tsv[.gz] or .csv[.gz]): one for each declared disease field, in order. */
const COLUMNS = DISEASE.fields.map((field) => field.source);

const list = (field: string): string[] => (field ? field.split('|').map((s) => s.trim()).filter(Boolean) : []);

function valueOf(field: Field, text: string): string | string[] {
  if (field.kind !== 'text') return list(text);
  return field.key ? text : text.trim();
}

function toDisease(line: number, fields: string[]): ParsedRow<DiseaseRecord> {
  if (fields.length !== COLUMNS.length) {
    return { line, error: `expected ${COLUMNS.length} fields, found ${fields.length}` };
  }
  const record = Object.fromEntries(DISEASE.fields.map((field, i) => [field.property, valueOf(field, fields[i])])) as DiseaseRecord;
  if (!record.diseaseName || !/^(MESH|OMIM):\S+$/.test(record.diseaseId)) {
    return { line, error: `missing name or malformed DiseaseID ${JSON.stringify(record.diseaseId)}` };
  }
  return { line, record };
}

/** The tab-separated form: `#` comment lines, with the header on the comment line after `# Fields:`. */
async function* readTsv(path: string, options: ReadOptions): AsyncGenerator<ParsedRow<DiseaseRecord>> {
  let lineNumber = 0;
  let headerNext = false;
  for await (const line of openTextLines(path, options)) {
    lineNumber += 1;
    if (line.startsWith('#')) {
      if (headerNext) {
        const header = line.replace(/^#\s*/, '').split('\t');
        if (COLUMNS.some((column, i) => header[i] !== column)) {
          throw new Error(`${path}:${lineNumber}: unexpected header ${header.join(', ')}`);
        }
      }
      headerNext = /^#\s*Fields:\s*$/.test(line);
      continue;
    }
    if (line.trim() === '') continue;
    yield toDisease(lineNumber, line.split('\t'));
  }
}

/** The CSV form of newer releases: same columns and comments, fields quoted where they hold a comma. */
async function* readCsv(path: string, options: ReadOptions): AsyncGenerator<ParsedRow<DiseaseRecord>> {
  for await (const { line, fields } of readDelimited(path, { ...options, delimiter: ',', quoted: true, comment: '#' })) {
    yield toDisease(line, fields);
  }
}

/** CTD diseases from a .tsv, .tsv.gz, .csv or .csv.gz file, chosen by the file name. */
export function readCtdDiseases(path: string, options: ReadOptions = {}): AsyncGenerator<ParsedRow<DiseaseRecord>> {
  return /\.csv(\.gz)?$/i.test(path) ? readCsv(path, options) : readTsv(path, options);
}
