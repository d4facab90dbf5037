import { readDelimited } from './delimited';
import { openTextLines, type ParsedRow, type ReadOptions } from './text-lines';

/** One row of the CTD MEDIC disease vocabulary (CTD_diseases.tsv[.gz] or .csv[.gz]). */
export interface CtdDisease {
  diseaseName: string;
  diseaseId: string;
  altDiseaseIds: string[];
  definition: string;
  parentIds: string[];
  treeNumbers: string[];
  parentTreeNumbers: string[];
  synonyms: string[];
  slimMappings: string[];
}

const COLUMNS = [
  'DiseaseName',
  'DiseaseID',
  'AltDiseaseIDs',
  'Definition',
  'ParentIDs',
  'TreeNumbers',
  'ParentTreeNumbers',
  'Synonyms',
  'SlimMappings',
] as const;

const list = (field: string): string[] => (field ? field.split('|').map((s) => s.trim()).filter(Boolean) : []);

function toDisease(line: number, fields: string[]): ParsedRow<CtdDisease> {
  if (fields.length !== COLUMNS.length) {
    return { line, error: `expected ${COLUMNS.length} fields, found ${fields.length}` };
  }
  const [name, id, alt, definition, parents, trees, parentTrees, synonyms, slims] = fields;
  if (!name.trim() || !/^(MESH|OMIM):\S+$/.test(id)) {
    return { line, error: `missing name or malformed DiseaseID ${JSON.stringify(id)}` };
  }
  return {
    line,
    record: {
      diseaseName: name.trim(),
      diseaseId: id,
      altDiseaseIds: list(alt),
      definition: definition.trim(),
      parentIds: list(parents),
      treeNumbers: list(trees),
      parentTreeNumbers: list(parentTrees),
      synonyms: list(synonyms),
      slimMappings: list(slims),
    },
  };
}

/** The tab-separated form: `#` comment lines, with the header on the comment line after `# Fields:`. */
async function* readTsv(path: string, options: ReadOptions): AsyncGenerator<ParsedRow<CtdDisease>> {
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
async function* readCsv(path: string, options: ReadOptions): AsyncGenerator<ParsedRow<CtdDisease>> {
  for await (const { line, fields } of readDelimited(path, { ...options, delimiter: ',', quoted: true, comment: '#' })) {
    yield toDisease(line, fields);
  }
}

/** CTD diseases from a .tsv, .tsv.gz, .csv or .csv.gz file, chosen by the file name. */
export function readCtdDiseases(path: string, options: ReadOptions = {}): AsyncGenerator<ParsedRow<CtdDisease>> {
  return /\.csv(\.gz)?$/i.test(path) ? readCsv(path, options) : readTsv(path, options);
}
