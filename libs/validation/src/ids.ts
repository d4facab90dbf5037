import { financeApi } from '@libs/contracts';
import { GrpcStatus, RpcError } from '@libs/grpc';

/** Path ids are checked before any query: a malformed one is a 400, never a database error. */
export function requireUuid(value: string, field = 'id'): string {
  if (!financeApi.uuid.safeParse(value).success) throw RpcError.invalidArgument(field, 'must be a UUID');
  return value;
}

/**
 * A fixed message naming the kind of record and what was looked up, never the value: client input is not echoed
 * (invalidArgument in libs/safe-text).
 */
export const notFound = (what: string, key = 'id') => new RpcError(GrpcStatus.NOT_FOUND, `no ${what} has that ${key}`);
