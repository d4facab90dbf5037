import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/**
 * Turns zod schemas into the JSON Schema 2020-12 of an OpenAPI 3.1 document
 * (zod's own z.toJSONSchema; docs/decisions/0014-openapi-from-zod.md says why
 * not a library). Schemas given an id (`.meta({ id: 'Transaction' })`) become
 * components, referred to by `#/components/schemas/<id>` wherever they appear.
 */
export class JsonSchemas {
  readonly components: Record<string, JsonSchema> = {};

  /**
   * `input`: what a client sends (bodies; parameters' text before parsing); `output`: what the schema parses
   * to (parameters, whose documented type is the parsed one: `b` an integer from 1 to 250) and what is answered.
   */
  of(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const { $defs, ...json } = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema & {
      $defs?: Record<string, JsonSchema>;
    };
    // The dialect is the document's (OpenAPI 3.1's JSON Schema 2020-12), not each schema's.
    delete json.$schema;
    for (const [id, definition] of Object.entries($defs ?? {})) this.define(id, referToComponents(definition));
    return referToComponents(json);
  }

  private define(id: string, definition: JsonSchema): void {
    const known = this.components[id];
    if (known && JSON.stringify(known) !== JSON.stringify(definition)) {
      throw new Error(`two different schemas are named ${id}: give one another id`);
    }
    this.components[id] = definition;
  }
}

const referToComponents = (schema: JsonSchema): JsonSchema =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
