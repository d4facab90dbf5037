export { createApiClient, newIdempotencyKey, ok, pages, type ApiClient, type ApiClientOptions } from './client';
export { ApiProblemError, type Problem } from './problem-error';
export type { components, operations, paths } from './generated/api';
