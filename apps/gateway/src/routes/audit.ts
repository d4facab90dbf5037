import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import type { auditV1 } from '@libs/contracts';
import { requireKey } from '../auth/authenticate';
import { QueryParams } from '../http/query-params';
import { timeRange } from '../http/time-range';
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

function toVerifyJson(result: auditV1.VerifyChainResponse) {
  const checked = Number(result.checked);
  if (result.intact) return { intact: true, checked, lastHash: result.lastHash || null };
  const broken = result.firstBreak;
  return {
    intact: false,
    checked,
    firstBadEntry: broken && { sequence: Number(broken.sequence), eventId: broken.eventId, problem: broken.problem },
  };
}

export function auditRoutes(upstreams: Upstreams, sequelize: Sequelize): Router {
  const router = Router();
  const base = '/api/v1/audit';

  router.get(base, requireKey(sequelize, 'audit:read'), async (req, res) => {
    const query = new QueryParams(req);
    const { from, before } = timeRange(query);
    const request: auditV1.ListEntriesRequest = {
      entityType: query.string('entityType', { max: 64 }) ?? '',
      entityId: query.string('entityId', { max: 64 }) ?? '',
      action: query.string('action', { max: 64 }) ?? '',
      actorId: query.string('actorId', { max: 64 }) ?? '',
      occurredFrom: from,
      occurredBefore: before,
      limit: query.integer('limit', 50, 1, 500),
      cursor: query.cursor() ?? '',
    };
    const page = await upstreams.audit.call((client) => client.listEntries, request, res);
    res.json({ entries: page.entries.map(toEntryJson), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) });
  });

  router.get(`${base}/verify`, requireKey(sequelize, 'audit:read'), async (_req, res) => {
    res.json(toVerifyJson(await upstreams.audit.call((client) => client.verifyChain, {}, res)));
  });

  router.get(`${base}/dead-letters`, requireKey(sequelize, 'audit:read'), async (_req, res) => {
    res.json(await upstreams.audit.call((client) => client.getDeadLetters, {}, res));
  });

  router.post(`${base}/dead-letters/replay`, requireKey(sequelize, 'audit:replay'), async (req, res) => {
    const limit = new QueryParams(req).integer('limit', 10_000, 1, 10_000);
    res.json(await upstreams.audit.call((client) => client.replayDeadLetters, { limit }, res));
  });

  return router;
}
