import { z } from 'zod';
import type { Entity, Field, MessageOf } from './fields';

/** A field's schema in the API's JSON: its value as the gRPC message holds it. */
function jsonSchemaOf(field: Field): z.ZodType {
  const schema = field.kind === 'list' ? z.array(z.string()) : z.string();
  return field.description === undefined ? schema : schema.meta({ description: field.description });
}

/** The zod shape of an entity's fields in the API's JSON, by their JSON names, in declaration order. */
export const jsonShapeOf = (entity: Entity): Record<string, z.ZodType> =>
  Object.fromEntries((entity.fields as readonly Field[]).map((field) => [field.json, jsonSchemaOf(field)]));

/** A gRPC message's fields under their JSON names, in declaration order. */
export function jsonOf<E extends Entity>(entity: E, message: MessageOf<E>): Record<string, string | string[]> {
  const values = message as Record<string, string | string[]>;
  const json: Record<string, string | string[]> = {};
  for (const field of entity.fields as readonly Field[]) json[field.json] = values[field.property];
  return json;
}
