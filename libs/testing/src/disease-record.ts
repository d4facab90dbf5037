import { DISEASE, type DiseaseRecord } from '@libs/contracts';

/** A disease with the given fields and every other declared one blank, for tests that care about a few. */
export function diseaseRecord(values: Pick<DiseaseRecord, 'diseaseId' | 'diseaseName'> & Partial<DiseaseRecord>): DiseaseRecord {
  const blank = Object.fromEntries(DISEASE.fields.map((field) => [field.property, field.kind === 'text' ? '' : []]));
  return { ...blank, ...values } as DiseaseRecord;
}
