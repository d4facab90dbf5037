import type { z } from 'zod';
import { fieldErrorsOf } from '@libs/contracts';
import { FieldChecks } from '@libs/validation';

/**
 * Parses a request's fields against the API's own schemas (libs/contracts/src/api/scheduling.ts, the ones the
 * gateway validates with), adding every problem to `checks` under the request's field names (prefixed by `at`);
 * undefined if it failed. What only this service knows (a premise, a service, a version) is checked after.
 */
export function parseInto<S extends z.ZodType>(checks: FieldChecks, schema: S, value: unknown, at = ''): z.output<S> | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  checks.errors.push(...fieldErrorsOf(result.error, at));
  return undefined;
}

/** The fields of a partial update that the message carries (proto3 optionals: absent is undefined). */
export const presentFields = <T extends Record<string, unknown>>(fields: T): Partial<T> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;

/** Parses a request's fields, throwing INVALID_ARGUMENT naming every problem (with those already in `checks`). */
export function parseRequest<S extends z.ZodType>(schema: S, value: unknown, checks = new FieldChecks()): z.output<S> {
  const parsed = parseInto(checks, schema, value);
  checks.throwIfAny();
  return parsed as z.output<S>;
}
