import { GrpcStatus, RpcError } from '@libs/grpc';
import { FUZZY_PASSES, SearchTimeoutError, type FuzzyPass, type FuzzyPosition } from '@libs/reference-db';

/** A busy database's moment passes quickly; a second is long enough not to add to it. */
const SEARCH_RETRY_AFTER_SECONDS = 1;

/**
 * A search the database stopped at its statement timeout. Not INVALID_ARGUMENT: every query is bounded to
 * be cheap (docs/SEARCH.md), so this means a busy database, and the same search may well pass later. Not
 * UNAVAILABLE or DEADLINE_EXCEEDED either: the service is up and answered, and the gateway's breaker must
 * not open because one client's searches are slow. RESOURCE_EXHAUSTED with a Retry-After → 429.
 */
const searchTooCostly = (error: SearchTimeoutError) =>
  new RpcError(
    GrpcStatus.RESOURCE_EXHAUSTED,
    `the search ran longer than the ${error.timeoutMs} ms allowed at the database and was stopped; retry later, or search for something more specific`,
    [],
    SEARCH_RETRY_AFTER_SECONDS,
  );

/** Runs a search, answering a statement it had stopped at its timeout as searchTooCostly. */
export async function answeringTimeouts<T>(search: () => Promise<T>): Promise<T> {
  try {
    return await search();
  } catch (error) {
    throw error instanceof SearchTimeoutError ? searchTooCostly(error) : error;
  }
}

/** A fuzzy walk's position from a cursor: the pass it searches and the sort tuple of the last concept served. */
export const isFuzzyPosition = (position: unknown): position is FuzzyPosition => {
  const { pass, after } = (position ?? {}) as Partial<FuzzyPosition>;
  return FUZZY_PASSES.includes(pass as FuzzyPass) && Array.isArray(after) && after.every((part) => typeof part === 'string' || typeof part === 'number');
};
