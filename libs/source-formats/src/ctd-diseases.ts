import { openTextLines, type ParsedRow } from './text-lines';

/** One row of the CTD MEDIC disease vocabulary (CTD_diseases.tsv[.gz]). */
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

/** Parses the tab-separated form: `#` comment lines, with the header on the comment line after `# Fields:`. */
export async function* readCtdDiseases(path: string): AsyncGenerator<ParsedRow<CtdDisease>> {
  let lineNumber = 0;
  let headerNext = false;
  for await (const line of openTextLines(path)) {
    lineNumber += 1;
    if (line.startsWith('#')) {
      if (headerNext) {
        const header = line.replace(/^#\s*/, '').split('\t');
        if (COLUMNS.some((column, i) => header[i] !== column)) {
          yield { line: lineNumber, error: `unexpected header: ${header.join(', ')}` };
          return;
        }
      }
      headerNext = /^#\s*Fields:\s*$/.test(line);
      continue;
    }
    if (line.trim() === '') continue;
    const fields = line.split('\t');
    if (fields.length !== COLUMNS.length) {
      yield { line: lineNumber, error: `expected ${COLUMNS.length} tab-separated fields, found ${fields.length}` };
      continue;
    }
    const [name, id, alt, definition, parents, trees, parentTrees, synonyms, slims] = fields;
    if (!name.trim() || !/^(MESH|OMIM):\S+$/.test(id)) {
      yield { line: lineNumber, error: `missing name or malformed DiseaseID ${JSON.stringify(id)}` };
      continue;
    }
    yield {
      line: lineNumber,
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
}
