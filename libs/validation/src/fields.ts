import type { z } from 'zod';
import { fieldErrorsOf, schedulingFields } from '@libs/contracts';
import { RpcError } from '@libs/grpc';
import type { FieldProblem } from '@libs/safe-text';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => UUID.test(value);

/**
 * Collects field problems so one response can name them all: first a request's fields, parsed against the
 * API's own schemas (@libs/contracts, the ones the gateway validates with), then what only the service can know.
 */
export class FieldChecks {
  readonly errors: FieldProblem[] = [];

  /** Parses `value` against `schema`, adding its problems (field names prefixed by `at`); undefined if it failed. */
  parse<S extends z.ZodType>(schema: S, value: unknown, at = ''): z.output<S> | undefined {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    this.errors.push(...fieldErrorsOf(result.error, at));
    return undefined;
  }

  check(ok: boolean, field: string, message: string): this {
    if (!ok) this.errors.push({ field, message });
    return this;
  }

  /** Throws INVALID_ARGUMENT naming every field at fault, if any. */
  throwIfAny(): void {
    if (this.errors.length > 0) throw RpcError.invalidArguments(this.errors);
  }

  uuid(value: string, field: string, options: { required: boolean }): this {
    if (value === '') return this.check(!options.required, field, 'is required');
    return this.check(isUuid(value), field, 'must be a UUID');
  }

  date(value: string, field: string): this {
    return this.check(schedulingFields.isLocalDate(value), field, schedulingFields.LOCAL_DATE_MESSAGE);
  }
}

/** Parses `value`, throwing INVALID_ARGUMENT naming every problem (with those already in `checks`). */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, checks = new FieldChecks()): z.output<S> {
  const parsed = checks.parse(schema, value);
  checks.throwIfAny();
  return parsed as z.output<S>;
}

/** The fields of a partial update that the message carries (proto3 optionals: absent is undefined). */
export const presentFields = <T extends Record<string, unknown>>(fields: T): Partial<T> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;

/** An optional text field of a gRPC message: '' means absent. */
export const given = (text: string): string | undefined => (text === '' ? undefined : text);
