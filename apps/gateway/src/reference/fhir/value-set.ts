import type { catalogueV1, referenceV1 } from '@libs/contracts';
import { compact, type FhirResource } from './bundle';
import { SYSTEMS } from './systems';

/** When this gateway started: the expansion timestamp, stable so that ETags repeat between requests. */
export const EXPANDED_AT = new Date().toISOString();

interface Concept {
  system?: string;
  code: string;
  display: string;
  designation?: { value: string }[];
}

const valueSet = (name: string, contains: Concept[]): FhirResource => ({
  resourceType: 'ValueSet',
  name,
  status: 'active',
  expansion: { timestamp: EXPANDED_AT, ...compact({ contains: contains.map((c) => compact({ ...c })) }) },
});

/** "MESH:D003920" → MeSH system and code "D003920"; "OMIM:222100" likewise; other prefixes keep the id as code. */
export function diseaseCoding(diseaseId: string): { system?: string; code: string } {
  const [prefix, code] = diseaseId.split(':', 2);
  if (prefix === 'MESH' && code) return { system: SYSTEMS.mesh, code };
  if (prefix === 'OMIM' && code) return { system: SYSTEMS.omim, code };
  return { code: diseaseId };
}

/** A page of diseases → one ValueSet expansion (docs/REFERENCE.md); synonyms become designations. */
export const diseaseValueSet = (diseases: referenceV1.Disease[]): FhirResource =>
  valueSet(
    'Diseases',
    diseases.map((d) => ({
      ...diseaseCoding(d.diseaseId),
      display: d.diseaseName,
      designation: d.synonyms.map((value) => ({ value })),
    })),
  );

/** A page of ATC categories → one ValueSet expansion over the ATC system. */
export const categoryValueSet = (categories: catalogueV1.DrugCategory[]): FhirResource =>
  valueSet(
    'DrugCategories',
    categories.map((c) => ({ system: SYSTEMS.atc, code: c.code, display: c.name })),
  );

/** A page of conditions → one ValueSet expansion over the Disease Ontology (a condition without DOID has no system). */
export const conditionValueSet = (conditions: catalogueV1.Condition[]): FhirResource =>
  valueSet(
    'Conditions',
    conditions.map((c) => (c.doid ? { system: SYSTEMS.doid, code: c.doid, display: c.name } : { code: c.id, display: c.name })),
  );
