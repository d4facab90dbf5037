import type { components } from './generated/api';

/** An RFC 9457 problem as the API answers it (its `errors` name each bad field). */
export type Problem = components['schemas']['Problem'];

/** Thrown for every answer of status 400 or more: the problem, its status and the request id to quote. */
export class ApiProblemError extends Error {
  constructor(
    readonly status: number,
    /** The problem body; undefined when the answer was not problem+json (a proxy's own error page, say). */
    readonly problem: Problem | undefined,
    readonly requestId: string | undefined,
    /** Seconds, from Retry-After (429, 503). */
    readonly retryAfter: number | undefined,
  ) {
    super(problem ? `${problem.status} ${problem.title}: ${problem.detail ?? ''}` : `HTTP ${status}`);
    this.name = 'ApiProblemError';
  }

  /** The field-level problems, `[{ field: 'amount', message: '…' }]`; empty when none. */
  get fieldErrors(): { field: string; message: string }[] {
    return this.problem?.errors ?? [];
  }

  static async from(response: Response): Promise<ApiProblemError> {
    const isProblem = /^application\/problem\+json/i.test(response.headers.get('content-type') ?? '');
    const problem = isProblem ? ((await response.clone().json()) as Problem) : undefined;
    const retryAfter = Number(response.headers.get('retry-after') ?? NaN);
    return new ApiProblemError(
      response.status,
      problem,
      response.headers.get('x-request-id') ?? problem?.requestId ?? undefined,
      Number.isFinite(retryAfter) ? retryAfter : undefined,
    );
  }
}
