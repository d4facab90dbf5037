import { upsertDiseases } from '@libs/reference-db';
import type { DiseaseRecord } from '@libs/contracts';
import { readCtdDiseases } from '@libs/source-formats';
import type { ImportSource } from '../import-source';

export const ctdSource: ImportSource<DiseaseRecord> = {
  name: 'ctd',
  describe: 'CTD MEDIC diseases: CTD_diseases.tsv, .tsv.gz, .csv or .csv.gz',
  read: readCtdDiseases,
  key: (disease) => disease.diseaseId,
  write: upsertDiseases,
};
