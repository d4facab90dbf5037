import { ConnectionError } from 'sequelize';

interface ErrorLike {
  code?: unknown;
  message?: unknown;
}

/** The error and what it wraps: Sequelize keeps pg's error as `parent` (and `original`); others use `cause`. */
function layersOf(error: unknown): ErrorLike[] {
  const outer = error as (ErrorLike & { parent?: unknown; original?: unknown; cause?: unknown }) | null | undefined;
  const layers = [outer, outer?.parent, outer?.original, outer?.cause];
  return layers.filter((layer): layer is ErrorLike => typeof layer === 'object' && layer !== null);
}

// Five digits or capitals; Node's own codes can look alike (EPIPE), but no SQLSTATE class starts with E.
const SQLSTATE = /^[0-9A-DF-Z][0-9A-Z]{4}$/;

/** The PostgreSQL SQLSTATE of an error from pg, whether Sequelize wrapped it or not. */
export function sqlStateOf(error: unknown): string | undefined {
  for (const layer of layersOf(error)) {
    if (typeof layer.code === 'string' && SQLSTATE.test(layer.code)) return layer.code;
  }
  return undefined;
}

/**
 * SQLSTATEs of a database that is away for now, rather than refusing the query:
 * class 08 (connection exception) is matched by its prefix.
 */
const AWAY_STATES = new Set([
  '57P01', // admin_shutdown: the backend was terminated (pg_terminate_backend, a fast shutdown)
  '57P02', // crash_shutdown: another backend crashed and the server is restarting
  '57P03', // cannot_connect_now: the server is starting up or shutting down
  '53300', // too_many_connections
]);

/** Node socket errors (pg passes them on as they are) of a connection that could not be made or broke. */
const BROKEN_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/** pg's messages, without a code, for a connection that ended under a query or could not be had in time. */
const BROKEN_CONNECTION_MESSAGE = /Connection terminated|not queryable|timeout exceeded when trying to connect/;

/**
 * True when a database operation failed because the database cannot be reached
 * right now (lost connection, server restarting or full, pool acquire timeout),
 * so the same call may well succeed shortly; false for an error of the query
 * itself (a constraint, a syntax error, a statement timeout), which would fail
 * again. Every Sequelize ConnectionError counts: a service checks its
 * configuration at start (it migrates before serving), so at run time one means
 * the database went away, or the pool had no connection to give in time.
 */
export function isTransientDatabaseError(error: unknown): boolean {
  if (error instanceof ConnectionError) return true;
  const state = sqlStateOf(error);
  // 08P01 protocol_violation is in the connection class, but it is a message the server refused (a NUL in a
  // literal, say): sent again, it fails again.
  if (state !== undefined) return (state.startsWith('08') && state !== '08P01') || AWAY_STATES.has(state);
  return layersOf(error).some(
    (layer) =>
      (typeof layer.code === 'string' && BROKEN_SOCKET_CODES.has(layer.code)) ||
      (typeof layer.message === 'string' && BROKEN_CONNECTION_MESSAGE.test(layer.message)),
  );
}

/** SQLSTATE classes where the data sent is at fault (22 data exception, 23 constraint violation). */
const CONTENT_ERROR_CLASSES = new Set(['22', '23']);

/**
 * True when storing this data can never succeed, however often it is tried (a consumer returns such a message to
 * its queue, which dead-letters it). Everything else (connection lost, database restarting, pool exhausted, a
 * deadlock) is a passing failure of the database, not of the message.
 */
export function isContentError(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state !== undefined && CONTENT_ERROR_CLASSES.has(state.slice(0, 2));
}
