/** Identifier and code systems of the scheduling area's FHIR resources: this API's own ids, as URNs. */
export const SCHEDULING_SYSTEMS = {
  resource: 'urn:clinical-reference:scheduling-resource',
  service: 'urn:clinical-reference:scheduling-service',
  slotToken: 'urn:clinical-reference:slot-token',
} as const;
