import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { boundedText, invalidArgument, wellFormed, type FieldProblem } from '@libs/safe-text';
import { METADATA } from './metadata';

// Status details and metadata travel in HTTP/2 headers: bounded, so that an error
// about a 100 KB value never makes a 100 KB trailer.
const MAX_DETAILS_LENGTH = 500;
const MAX_FIELD_ERRORS = 20;
const MAX_FIELD_LENGTH = 100;
const MAX_FIELD_MESSAGE_LENGTH = 200;

/** JSON in printable ASCII, as gRPC metadata values must be: anything else becomes a \u escape, which JSON reads back. */
const asciiJson = (value: unknown): string =>
  JSON.stringify(value).replace(/[^\x20-\x7e]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** An error a handler throws on purpose: its code and message reach the caller (well-formed and bounded). */
export class RpcError extends Error {
  constructor(
    readonly code: status,
    message: string,
    readonly fieldErrors: FieldProblem[] = [],
    /** When the same call may pass: for a refusal by cost (RESOURCE_EXHAUSTED), told to the client as Retry-After. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'RpcError';
  }

  /** INVALID_ARGUMENT naming `field` and the rule it broke: worded, and client input kept out, by `invalidArgument`. */
  static invalidArgument(field: string, message: string): RpcError {
    return RpcError.invalidArguments([{ field, message }]);
  }

  /** INVALID_ARGUMENT naming every field at fault; the gateway makes its 400 from the details and field errors. */
  static invalidArguments(problems: readonly FieldProblem[]): RpcError {
    const { detail, problems: named } = invalidArgument(problems);
    return new RpcError(status.INVALID_ARGUMENT, detail, named);
  }

  toServiceError(): Partial<ServiceError> {
    const metadata = new Metadata();
    if (this.fieldErrors.length > 0) {
      const errors = this.fieldErrors.slice(0, MAX_FIELD_ERRORS).map(({ field, message }) => ({
        field: boundedText(field, MAX_FIELD_LENGTH),
        message: boundedText(message, MAX_FIELD_MESSAGE_LENGTH),
      }));
      metadata.set(METADATA.fieldErrors, asciiJson(errors));
    }
    if (this.retryAfterSeconds !== undefined) metadata.set(METADATA.retryAfter, String(this.retryAfterSeconds));
    return { code: this.code, details: boundedText(this.message, MAX_DETAILS_LENGTH), metadata };
  }
}

/** The Retry-After a service set on a refusal, if it set a plain whole number of seconds. */
export function retryAfterOf(error: Partial<ServiceError>): number | undefined {
  const raw = error.metadata?.get(METADATA.retryAfter)[0];
  return typeof raw === 'string' && /^\d{1,5}$/.test(raw) ? Number(raw) : undefined;
}

const isFieldProblem = (value: unknown): value is FieldProblem =>
  typeof (value as FieldProblem)?.field === 'string' && typeof (value as FieldProblem)?.message === 'string';

/** The field-level problems a service attached to an error, if any. */
export function fieldErrorsOf(error: Partial<ServiceError>): FieldProblem[] {
  const raw = error.metadata?.get(METADATA.fieldErrors)[0];
  if (typeof raw !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter(isFieldProblem) : [];
  } catch {
    return [];
  }
}

/** Largest `x-problem` value: it travels in a trailer, which grpc-js caps (with the rest) at 8 KiB by default. */
const MAX_PROBLEM_LENGTH = 4_096;

/**
 * Machine-readable members of a refusal, besides its code and message: `type` names the refusal (the gateway
 * picks the HTTP status and problem type from it), the other members go into the problem as they are (RFC 9457
 * extension members), e.g. the current state of a record and the states a move is allowed from.
 */
export interface Problem {
  type: string;
  [member: string]: unknown;
}

/** An RpcError that carries a Problem in the `x-problem` trailer, as ASCII JSON of at most 4 KiB. */
export class ProblemError extends RpcError {
  constructor(
    code: status,
    message: string,
    readonly problem: Problem,
  ) {
    super(code, message);
    this.name = 'ProblemError';
  }

  override toServiceError(): Partial<ServiceError> {
    const error = super.toServiceError();
    // Well-formed: the members may quote the caller's input, lone surrogates included.
    const text = asciiJson(JSON.parse(JSON.stringify(this.problem, (_key, value: unknown) => (typeof value === 'string' ? wellFormed(value) : value))));
    // Too long to travel: the type alone still lets the caller tell what happened.
    error.metadata?.set(METADATA.problem, text.length <= MAX_PROBLEM_LENGTH ? text : asciiJson({ type: this.problem.type }));
    return error;
  }
}

/** The Problem a service attached to a refusal, if any. */
export function problemOf(error: Partial<ServiceError>): Problem | undefined {
  const raw = error.metadata?.get(METADATA.problem)[0];
  if (typeof raw !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    const type = (parsed as Problem | null)?.type;
    return typeof type === 'string' ? (parsed as Problem) : undefined;
  } catch {
    return undefined;
  }
}
