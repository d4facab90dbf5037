import { sqlStateOf } from '@libs/db';

/** SQLSTATE classes where the event's own data is at fault (22 data exception, 23 constraint violation). */
const CONTENT_ERROR_CLASSES = new Set(['22', '23']);

/**
 * True when storing this event can never succeed, however often it is tried.
 * Everything else (connection lost, database restarting, pool exhausted, a
 * deadlock) is a passing failure of the database, not of the message.
 */
export function isContentError(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state !== undefined && CONTENT_ERROR_CLASSES.has(state.slice(0, 2));
}
