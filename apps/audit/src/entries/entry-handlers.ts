import type { Sequelize } from 'sequelize';
import { AUDIT_LIMITS, type auditV1 } from '@libs/contracts';
import { CursorCodec, InvalidCursorError } from '@libs/cursor';
import { GrpcStatus, RpcError } from '@libs/grpc';
import { verifyChain } from './chain-verify';
import { listEntries, type EntryFilters } from './entry-query';

const { max: MAX_LIMIT, default: DEFAULT_LIMIT } = AUDIT_LIMITS.page;

const invalid = (field: string, message: string) =>
  new RpcError(GrpcStatus.INVALID_ARGUMENT, `${field} ${message}`, [{ field, message }]);

/** Bounds arrive as RFC 3339 text; the field names in errors are the HTTP parameters' (from, to). */
function timestamp(value: string, field: string): string {
  if (value === '') return '';
  const time = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(time)) throw invalid(field, 'must be an ISO 8601 timestamp');
  return new Date(time).toISOString();
}

function filtersOf(request: auditV1.ListEntriesRequest): EntryFilters {
  const filters = {
    entityType: request.entityType,
    entityId: request.entityId,
    action: request.action,
    actorId: request.actorId,
    occurredFrom: timestamp(request.occurredFrom, 'from'),
    occurredBefore: timestamp(request.occurredBefore, 'to'),
  };
  if (filters.occurredFrom && filters.occurredBefore && filters.occurredFrom >= filters.occurredBefore) {
    throw invalid('to', 'must be later than from');
  }
  return filters;
}

export function entryHandlers(sequelize: Sequelize, cursors: CursorCodec) {
  return {
    async listEntries(request: auditV1.ListEntriesRequest): Promise<auditV1.ListEntriesResponse> {
      const limit = request.limit === 0 ? DEFAULT_LIMIT : request.limit;
      if (limit < 1 || limit > MAX_LIMIT) throw invalid('limit', `must be an integer from 1 to ${MAX_LIMIT}`);
      const filters = filtersOf(request);
      // The page size is not part of what a cursor is bound to: a client may change it mid-walk.
      let afterSequence: string | undefined;
      if (request.cursor) {
        try {
          afterSequence = cursors.decode<string>(request.cursor, filters);
        } catch (error) {
          if (!(error instanceof InvalidCursorError)) throw error;
          throw invalid('cursor', error.message);
        }
        if (typeof afterSequence !== 'string' || !/^\d{1,19}$/.test(afterSequence)) throw invalid('cursor', 'is malformed');
      }
      const rows = await listEntries(sequelize, filters, { limit: limit + 1, afterSequence });
      const entries = rows.slice(0, limit);
      const last = entries[entries.length - 1];
      return {
        entries,
        nextCursor: rows.length > limit && last ? cursors.encode(filters, last.sequence) : '',
      };
    },

    verifyChain: (): Promise<auditV1.VerifyChainResponse> => verifyChain(sequelize),
  };
}
