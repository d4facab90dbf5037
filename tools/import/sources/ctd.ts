import { upsertDiseases } from '@libs/reference-db';
import { readCtdDiseases, type CtdDisease } from '@libs/source-formats';
import type { ImportSource } from '../import-source';

export const ctdSource: ImportSource<CtdDisease> = {
  name: 'ctd',
  describe: 'CTD MEDIC diseases: CTD_diseases.tsv, .tsv.gz, .csv or .csv.gz',
  read: readCtdDiseases,
  key: (disease) => disease.diseaseId,
  write: upsertDiseases,
};
