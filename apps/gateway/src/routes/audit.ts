import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import type { auditV1 } from '@libs/contracts';
import { requireKey } from '../auth/authenticate';
import { QueryParams } from '../http/query-params';
import type { Upstreams } from '../upstreams/upstreams';

function toEntryJson(entry: auditV1.AuditEntry) {
  return {
    sequence: Number(entry.sequence),
    eventId: entry.eventId,
    occurredAt: entry.occurredAt,
    recordedAt: entry.recordedAt,
    action: entry.action,
    entityType: entry.entityType,
    entityIds: entry.entityIds,
    actor: entry.actor,
    requestId: entry.requestId,
    ...(entry.traceId && { traceId: entry.traceId }),
    before: JSON.parse(entry.beforeJson || 'null'),
    after: JSON.parse(entry.afterJson || 'null'),
    prevHash: entry.prevHash,
    hash: entry.hash,
  };
}

export function auditRoutes(upstreams: Upstreams, sequelize: Sequelize): Router {
  const router = Router();
  router.get('/api/v1/audit', requireKey(sequelize, 'audit:read'), async (req, res) => {
    const query = new QueryParams(req);
    const request: auditV1.ListEntriesRequest = {
      entityType: query.string('entityType', { max: 64 }) ?? '',
      entityId: query.string('entityId', { max: 64 }) ?? '',
      action: query.string('action', { max: 64 }) ?? '',
      limit: query.integer('limit', 50, 1, 500),
    };
    const { entries } = await upstreams.audit.call((client) => client.listEntries, request, res);
    res.json({ entries: entries.map(toEntryJson) });
  });
  return router;
}
