import type { Sequelize } from 'sequelize';
import { AUDIT_LIMITS, type auditV1 } from '@libs/contracts';
import { keysetPage, pageSize, type CursorCodec } from '@libs/cursor';
import { requirePermission, RpcError, type CallContext } from '@libs/grpc';
import type { CheckpointKeys } from '../checkpoints/checkpoint-keys';
import { verifyChain } from './chain-verify';
import { listEntries, type EntryFilters } from './entry-query';

/** Entries per page. */
const AUDIT_PAGE = AUDIT_LIMITS.page;

/** Bounds arrive as RFC 3339 text; the field names in errors are the HTTP parameters' (from, to). */
function timestamp(value: string, field: string): string {
  if (value === '') return '';
  const time = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(time)) throw RpcError.invalidArgument(field, 'must be an ISO 8601 timestamp');
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
    throw RpcError.invalidArgument('to', 'must be later than from');
  }
  return filters;
}

/** The audit walk's position: the last sequence served (a bigint, so text). */
export const isSequence = (position: unknown): position is string => typeof position === 'string' && /^\d{1,19}$/.test(position);

export function entryHandlers(sequelize: Sequelize, cursors: CursorCodec, checkpointKeys: CheckpointKeys) {
  return {
    async listEntries(request: auditV1.ListEntriesRequest, context: CallContext): Promise<auditV1.ListEntriesResponse> {
      requirePermission(context, 'audit:read');
      const limit = pageSize(request.limit, AUDIT_PAGE);
      const filters = filtersOf(request);
      const page = await keysetPage({
        cursors,
        cursor: request.cursor,
        query: filters,
        limit,
        isPosition: isSequence,
        positionOf: (entry: auditV1.AuditEntry) => entry.sequence,
        fetch: (afterSequence, pageLimit) => listEntries(sequelize, filters, { limit: pageLimit, afterSequence }),
      });
      return { entries: page.rows, nextCursor: page.nextCursor };
    },

    async verifyChain(_: auditV1.VerifyChainRequest, context: CallContext): Promise<auditV1.VerifyChainResponse> {
      requirePermission(context, 'audit:read');
      return verifyChain(sequelize, checkpointKeys);
    },
  };
}
