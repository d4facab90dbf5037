import { FINANCE_LIMITS } from '@libs/contracts';
import { InvalidCursorError, type CursorCodec } from '@libs/cursor';
import { GrpcStatus, RpcError } from '@libs/grpc';

const { default: DEFAULT_PAGE, max: MAX_PAGE } = FINANCE_LIMITS.page;

const invalid = (field: string, message: string) => new RpcError(GrpcStatus.INVALID_ARGUMENT, `${field} ${message}`, [{ field, message }]);

/** 0 (unset) means the default page size. */
export function pageLimit(limit: number): number {
  if (limit === 0) return DEFAULT_PAGE;
  if (limit < 1 || limit > MAX_PAGE) throw invalid('limit', `must be an integer from 1 to ${MAX_PAGE}`);
  return limit;
}

/** The keyset position a cursor holds, or null for the first page; a forged or foreign cursor is a 400. */
export function cursorPosition<T>(cursors: CursorCodec, cursor: string, query: unknown): T | null {
  if (cursor === '') return null;
  try {
    return cursors.decode<T>(cursor, query);
  } catch (error) {
    if (error instanceof InvalidCursorError || error instanceof SyntaxError) throw invalid('cursor', error.message);
    throw error;
  }
}

/** Trims the extra row fetched to detect a following page and signs the next cursor. */
export function pageOf<T>(
  rows: T[],
  limit: number,
  cursors: CursorCodec,
  query: unknown,
  position: (last: T) => unknown,
): { items: T[]; nextCursor: string } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? cursors.encode(query, position(last)) : '' };
}
