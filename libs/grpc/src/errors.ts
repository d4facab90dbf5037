import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { METADATA } from './metadata';

export interface FieldError {
  field: string;
  message: string;
}

/** An error a handler throws on purpose: its code and message reach the caller as they are. */
export class RpcError extends Error {
  constructor(
    readonly code: status,
    message: string,
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(message);
    this.name = 'RpcError';
  }

  toServiceError(): Partial<ServiceError> {
    const metadata = new Metadata();
    if (this.fieldErrors.length > 0) metadata.set(METADATA.fieldErrors, JSON.stringify(this.fieldErrors));
    return { code: this.code, details: this.message, metadata };
  }
}

/** The field-level problems a service attached to an error, if any. */
export function fieldErrorsOf(error: Partial<ServiceError>): FieldError[] {
  const raw = error.metadata?.get(METADATA.fieldErrors)[0];
  if (typeof raw !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? (parsed as FieldError[]) : [];
  } catch {
    return [];
  }
}
