import { financeApi } from '@libs/contracts';
import { GrpcStatus, RpcError } from '@libs/grpc';

/** Path ids are checked before any query: a malformed one is a 400, never a database error. */
export function requireUuid(value: string, field = 'id'): string {
  if (!financeApi.uuid.safeParse(value).success) throw new RpcError(GrpcStatus.INVALID_ARGUMENT, `${field} must be a UUID`, [{ field, message: 'must be a UUID' }]);
  return value;
}

export const notFound = (what: string, id: string) => new RpcError(GrpcStatus.NOT_FOUND, `no ${what} with id ${id}`);
