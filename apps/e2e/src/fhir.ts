import JSONSchemaValidator from '@asymmetrik/fhir-json-schema-validator';

let validator: JSONSchemaValidator | undefined;

/** Problems the FHIR R4 JSON schema finds in a resource (and in each resource of a Bundle); empty when valid. */
export function fhirProblems(resource: { resourceType?: string; entry?: { resource: unknown }[] }): string[] {
  validator ??= new JSONSchemaValidator();
  const own = validator.validate(resource).map((p) => (typeof p === 'string' ? p : `${p.dataPath} ${p.message}`));
  const entries = (resource.entry ?? []).flatMap((e, i) => fhirProblems(e.resource as never).map((p) => `entry[${i}]: ${p}`));
  return [...own, ...entries];
}
