import { RpcError } from '@libs/grpc';
import { InvalidCursorError, type CursorCodec } from './cursor';

/**
 * A cursor the codec refuses is the caller's mistake: INVALID_ARGUMENT naming `cursor`, which is the
 * parameter's name in every list of the API.
 */
const badCursor = (reason: string): RpcError => RpcError.invalidArgument('cursor', reason);

/**
 * The page size asked for: 0 (the proto default, nothing sent) means `sizes.default`; anything outside
 * 1..`sizes.max` is INVALID_ARGUMENT naming `field`, the list's page-size parameter.
 */
export function pageSize(requested: number, sizes: { default: number; max: number }, field = 'limit'): number {
  if (requested === 0) return sizes.default;
  if (!Number.isInteger(requested) || requested < 1 || requested > sizes.max) {
    throw RpcError.invalidArgument(field, `must be an integer from 1 to ${sizes.max}`);
  }
  return requested;
}

/** A position is checked for its shape after its signature, so a list's SQL only ever sees positions it made. */
export type PositionCheck<K> = (position: unknown) => position is K;

/** A position that is one text value (e.g. a code the rows are ordered by). */
export const isText: PositionCheck<string> = (position): position is string => typeof position === 'string';

/** A position of `length` text values, e.g. [sort key, id]: most of the services' orders. */
export function isTextTuple<K extends string[]>(length: K['length']): PositionCheck<K> {
  return (position): position is K => Array.isArray(position) && position.length === length && position.every(isText);
}

/** [sort key, id]: the position of most lists. */
export const isTextPair = isTextTuple<[string, string]>(2);

/**
 * The keyset position a cursor holds for this query, or undefined without a cursor (the first page).
 * A forged, damaged or foreign cursor, one made for other filters, or one holding a position of
 * another shape is INVALID_ARGUMENT naming `cursor`.
 */
export function cursorPosition<K>(cursors: CursorCodec, cursor: string, query: unknown, isPosition: PositionCheck<K>): K | undefined {
  if (cursor === '') return undefined;
  let position: unknown;
  try {
    position = cursors.decode<unknown>(cursor, query);
  } catch (error) {
    if (error instanceof InvalidCursorError) throw badCursor(error.reason);
    throw error;
  }
  if (!isPosition(position)) throw badCursor('is malformed');
  return position;
}

export interface KeysetPage<R> {
  rows: R[];
  /** '' on the last page. */
  nextCursor: string;
}

/**
 * One page of a keyset walk: decodes the cursor against the query, fetches one row more than the
 * page to learn whether another page follows, and signs the position of the page's last row into
 * nextCursor (also when the fetch was cut short by bytes). The page size is not part of the query a
 * cursor is bound to: a client may change it mid-walk.
 */
export async function keysetPage<R, K>(options: {
  cursors: CursorCodec;
  cursor: string;
  /** What the cursor is bound to: the filters, normalised, and anything else that changes the order. */
  query: unknown;
  limit: number;
  isPosition: PositionCheck<K>;
  positionOf: (row: R) => K;
  /**
   * Rows after `after` (from the start without it), in the walk's order, at most `limit`. A list whose pages are
   * bounded by bytes too may answer fewer, with `cut` set when rows it left out follow: the page ends there, with
   * a cursor.
   */
  fetch: (after: K | undefined, limit: number) => Promise<R[] | { rows: R[]; cut: boolean }>;
}): Promise<KeysetPage<R>> {
  const after = cursorPosition(options.cursors, options.cursor, options.query, options.isPosition);
  const answer = await options.fetch(after, options.limit + 1);
  const [fetched, cut] = Array.isArray(answer) ? [answer, false] : [answer.rows, answer.cut];
  const rows = fetched.slice(0, options.limit);
  const last = rows[rows.length - 1];
  const more = (cut || fetched.length > options.limit) && last !== undefined;
  return { rows, nextCursor: more ? options.cursors.encode(options.query, options.positionOf(last)) : '' };
}
