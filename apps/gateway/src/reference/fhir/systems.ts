/** Code system URIs, as FHIR registers them (http://hl7.org/fhir/R4/terminologies-systems.html). */
export const SYSTEMS = {
  loinc: 'http://loinc.org',
  atc: 'http://www.whocc.no/atc',
  drugbank: 'http://www.drugbank.ca',
  mesh: 'http://id.nlm.nih.gov/mesh',
  omim: 'http://omim.org',
  doid: 'http://purl.obolibrary.org/obo/doid.owl',
  roleCode: 'http://terminology.hl7.org/CodeSystem/v3-RoleCode',
  premiseCode: 'urn:clinical-finance:premise-code',
  // FDA application and product numbers (Drugs@FDA) have no registered URI: the API names them as it does premise codes.
  fdaApplication: 'urn:clinical-finance:fda-application',
  fdaProduct: 'urn:clinical-finance:fda-product',
} as const;
