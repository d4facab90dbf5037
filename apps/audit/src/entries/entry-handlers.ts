import type { Sequelize } from 'sequelize';
import type { auditV1 } from '@libs/contracts';
import { GrpcStatus, RpcError } from '@libs/grpc';
import { listEntries } from './audit-store';

const MAX_LIMIT = 500;

export function entryHandlers(sequelize: Sequelize) {
  return {
    async listEntries(request: auditV1.ListEntriesRequest): Promise<auditV1.ListEntriesResponse> {
      const limit = request.limit === 0 ? 50 : request.limit;
      if (limit < 1 || limit > MAX_LIMIT) {
        throw new RpcError(GrpcStatus.INVALID_ARGUMENT, `limit must be 1 to ${MAX_LIMIT}`, [
          { field: 'limit', message: `must be an integer from 1 to ${MAX_LIMIT}` },
        ]);
      }
      return { entries: await listEntries(sequelize, { ...request, limit }) };
    },
  };
}
