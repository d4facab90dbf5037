import type { z } from 'zod';
import { fieldErrorsOf } from '@libs/contracts';
import { GrpcStatus, RpcError, type FieldError } from '@libs/grpc';

/**
 * The problems found in one request, so that one answer can name them all:
 * first its fields, parsed against the finance API's own schemas
 * (@libs/contracts, the ones the gateway validates with), then what only this
 * service can know, such as a reference to a record that does not exist.
 */
export class InputProblems {
  readonly errors: FieldError[] = [];

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
    if (this.errors.length === 0) return;
    const summary = this.errors.map((e) => `${e.field} ${e.message}`).join('; ');
    throw new RpcError(GrpcStatus.INVALID_ARGUMENT, summary, this.errors);
  }
}

/** Parses `value`, throwing INVALID_ARGUMENT naming every problem. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const problems = new InputProblems();
  const parsed = problems.parse(schema, value);
  problems.throwIfAny();
  return parsed as z.output<S>;
}

/**
 * Amounts travel as decimal strings (int64 in the messages); the API's schemas take numbers. Anything but an
 * integer becomes NaN, which they refuse as not an amount.
 */
export const amountOf = (text: string): number => (/^-?\d{1,30}$/.test(text) ? Number(text) : Number.NaN);

/** An optional text field of a message: '' means absent. */
export const given = (text: string): string | undefined => (text === '' ? undefined : text);
