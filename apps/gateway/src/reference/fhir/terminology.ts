import { CODE_SYSTEMS, VALUE_SETS, type CodeSystem, type ValueSetName } from '@libs/contracts';
import type { FhirResource } from './bundle';
import { SYSTEMS } from './systems';
import { diseaseCoding } from './value-set';

/** Each code system's URI (FHIR's registered one where there is one) and title. */
const CODE_SYSTEM_INFO: Record<CodeSystem, { url: string; title: string }> = {
  mesh: { url: SYSTEMS.mesh, title: 'Medical Subject Headings (MeSH): diseases' },
  omim: { url: SYSTEMS.omim, title: 'Online Mendelian Inheritance in Man (OMIM): diseases' },
  doid: { url: SYSTEMS.doid, title: 'Human Disease Ontology (DOID): conditions and diseases' },
  drugbank: { url: SYSTEMS.drugbank, title: 'DrugBank: drugs' },
  'fda-application': { url: SYSTEMS.fdaApplication, title: 'Drugs@FDA application numbers: drugs' },
  'fda-product': { url: SYSTEMS.fdaProduct, title: 'Drugs@FDA product numbers (<ApplNo>-<ProductNo>): drugs' },
  atc: { url: SYSTEMS.atc, title: 'WHO Anatomical Therapeutic Chemical classification (ATC): drug categories' },
  loinc: { url: SYSTEMS.loinc, title: 'LOINC: laboratory tests' },
};

export const codeSystemUrl = (system: CodeSystem): string => CODE_SYSTEM_INFO[system].url;

/** The code system a URI names, if the catalogue knows it. */
export const codeSystemOf = (url: string): CodeSystem | undefined => CODE_SYSTEMS.find((system) => CODE_SYSTEM_INFO[system].url === url);

/**
 * A code system as a CodeSystem resource, its id the API's name for it. Its concepts are not listed (content
 * `not-present`): $lookup resolves them, and the value sets expand them.
 */
export const codeSystemResource = (system: CodeSystem): FhirResource => ({
  resourceType: 'CodeSystem',
  id: system,
  url: CODE_SYSTEM_INFO[system].url,
  name: system.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase()).replace(/^\w/, (letter) => letter.toUpperCase()),
  title: CODE_SYSTEM_INFO[system].title,
  status: 'active',
  content: 'not-present',
});

/** The canonical URL of a value set: not an address (it must not change with the host the gateway is reached by). */
export const valueSetUrl = (name: ValueSetName): string => `urn:clinical-finance:value-set:${name}`;

export const valueSetOf = (url: string): ValueSetName | undefined =>
  (Object.keys(VALUE_SETS) as ValueSetName[]).find((name) => valueSetUrl(name) === url);

/** A value set as a ValueSet resource: its definition includes its code systems; $expand lists the concepts. */
export const valueSetResource = (name: ValueSetName): FhirResource => ({
  resourceType: 'ValueSet',
  id: name,
  url: valueSetUrl(name),
  name: name.replace(/^\w/, (letter) => letter.toUpperCase()),
  title: `Every coded ${VALUE_SETS[name].type} of the catalogue`,
  status: 'active',
  compose: { include: VALUE_SETS[name].systems.map((system) => ({ system: codeSystemUrl(system) })) },
});

/** A value set's code as the catalogue stores it → its FHIR coding: a disease's by its prefix, the others' by their one system. */
export const codingOf = (name: ValueSetName, code: string): { system?: string; code: string } =>
  name === 'diseases' ? diseaseCoding(code) : { system: codeSystemUrl(VALUE_SETS[name].systems[0]), code };
