import { ConnectionError } from 'sequelize';
import { GrpcStatus, RpcError } from '@libs/grpc';

/** SQLSTATE classes where the event's own data is at fault (22 data exception, 23 constraint violation). */
const CONTENT_ERROR_CLASSES = new Set(['22', '23']);

function sqlState(error: unknown): string | undefined {
  const candidates = [error, (error as { parent?: unknown })?.parent, (error as { original?: unknown })?.original];
  for (const candidate of candidates) {
    const code = (candidate as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * True when storing this event can never succeed, however often it is tried.
 * Everything else (connection lost, database restarting, pool exhausted, a
 * deadlock) is a passing failure of the database, not of the message.
 */
export function isContentError(error: unknown): boolean {
  const state = sqlState(error);
  return state !== undefined && CONTENT_ERROR_CLASSES.has(state.slice(0, 2));
}

/** SQLSTATE classes of a database that is away: 08 connection exception, 53 insufficient resources, 57 operator intervention. */
const UNREACHABLE_CLASSES = new Set(['08', '53', '57']);
const DROPPED_CONNECTION = /Connection terminated|not queryable|ECONNRESET|ECONNREFUSED/;

/** True when the database cannot be reached right now (as opposed to refusing a query). */
export function isDatabaseUnreachable(error: unknown): boolean {
  if (error instanceof ConnectionError) return true;
  const state = sqlState(error);
  if (state !== undefined) return UNREACHABLE_CLASSES.has(state.slice(0, 2));
  return DROPPED_CONNECTION.test(String((error as { message?: unknown })?.message ?? ''));
}

/** Runs a read for a gRPC call: an unreachable database is UNAVAILABLE (the client may retry), never INTERNAL. */
export async function readingDatabase<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (isDatabaseUnreachable(error)) {
      throw new RpcError(GrpcStatus.UNAVAILABLE, 'the audit database is unavailable; retry shortly');
    }
    throw error;
  }
}
