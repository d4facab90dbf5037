import { fieldErrorsOf, GrpcStatus, problemOf, retryAfterOf, type Problem, type ServiceError } from '@libs/grpc';
import { HttpProblem } from '@libs/http-problems';
import { unauthorized } from '../http/unauthorized';

const HTTP_STATUS: Partial<Record<GrpcStatus, number>> = {
  [GrpcStatus.INVALID_ARGUMENT]: 400,
  [GrpcStatus.UNAUTHENTICATED]: 401,
  [GrpcStatus.PERMISSION_DENIED]: 403,
  [GrpcStatus.NOT_FOUND]: 404,
  [GrpcStatus.ALREADY_EXISTS]: 409,
  [GrpcStatus.FAILED_PRECONDITION]: 409,
  // ABORTED: a concurrency precondition failed (a stale If-Match version).
  [GrpcStatus.ABORTED]: 412,
  [GrpcStatus.RESOURCE_EXHAUSTED]: 429,
  // A policy rule refused a valid request (scheduling's notice, horizon and cut-offs).
  [GrpcStatus.OUT_OF_RANGE]: 422,
  [GrpcStatus.UNAVAILABLE]: 503,
  [GrpcStatus.DEADLINE_EXCEEDED]: 504,
};

/**
 * Refusals a service names in its `x-problem` trailer whose HTTP status is not the one of their gRPC code
 * (docs/SCHEDULING.md, "Refusals"). The others keep the status of their code.
 */
const PROBLEM_STATUS: Record<string, number> = { hold_expired: 410, file_too_large: 413, unsupported_media_type: 415 };

/** Problem types are URNs: they name the refusal and need not resolve (RFC 9457, section 3.1.1). */
export const problemType = (type: string) => `urn:clinical-reference:problem:${type}`;

/** A named refusal: its type, and its members as extension members (`alternatives`, `currentStatus`, …). */
function namedProblem(status: number, detail: string, { type, ...members }: Problem): HttpProblem {
  return new HttpProblem(PROBLEM_STATUS[type] ?? status, detail, { type: problemType(type), extensions: members });
}

export const isServiceError = (error: unknown): error is ServiceError =>
  error instanceof Error && typeof (error as Partial<ServiceError>).code === 'number';

/** Maps a gRPC failure to the problem the client sees (by HTTP_STATUS above); internals never leak into a 5xx. */
export function problemFromGrpc(upstream: string, error: ServiceError, retryAfterSeconds: number): HttpProblem {
  const status = HTTP_STATUS[error.code as GrpcStatus] ?? 500;
  if (status === 503) {
    return new HttpProblem(503, `the ${upstream} service is unavailable; retry shortly`, {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  }
  if (status === 504) return new HttpProblem(504, `the ${upstream} service did not answer in time`);
  if (status === 429) {
    // A service's refusal by cost says when to retry; grpc-js's own RESOURCE_EXHAUSTED (a message over the size
    // limit) does not, would fail again, and its details name internal sizes.
    const retryAfter = retryAfterOf(error);
    if (retryAfter !== undefined) return new HttpProblem(429, error.details, { headers: { 'Retry-After': String(retryAfter) } });
  }
  if (status >= 500 || status === 429) return new HttpProblem(500, 'an internal error occurred; quote the requestId when reporting it');
  if (status === 401) return unauthorized(error.details);
  const named = problemOf(error);
  if (named) return namedProblem(status, error.details, named);
  const errors = fieldErrorsOf(error);
  return new HttpProblem(status, error.details, errors.length ? { errors } : {});
}
