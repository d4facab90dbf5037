import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { boundedText } from '@libs/safe-text';
import { METADATA } from './metadata';

export interface FieldError {
  field: string;
  message: string;
}

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
    readonly fieldErrors: FieldError[] = [],
    /** When the same call may pass: for a refusal by cost (RESOURCE_EXHAUSTED), told to the client as Retry-After. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'RpcError';
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

const isFieldError = (value: unknown): value is FieldError =>
  typeof (value as FieldError)?.field === 'string' && typeof (value as FieldError)?.message === 'string';

/** The field-level problems a service attached to an error, if any. */
export function fieldErrorsOf(error: Partial<ServiceError>): FieldError[] {
  const raw = error.metadata?.get(METADATA.fieldErrors)[0];
  if (typeof raw !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter(isFieldError) : [];
  } catch {
    return [];
  }
}
