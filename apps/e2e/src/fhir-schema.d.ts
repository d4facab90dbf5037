/** Types for the untyped validator package: the official FHIR R4 JSON schema, checked with ajv. */
declare module '@asymmetrik/fhir-json-schema-validator' {
  export default class JSONSchemaValidator {
    constructor(schema?: object, ajvSettings?: object);
    /** Problems found, empty when the resource is valid. */
    validate(resource: unknown, verbose?: boolean): { dataPath?: string; message?: string }[] | string[];
  }
}
