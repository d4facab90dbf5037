import { SUBJECTS_VERSION, type auditV1 } from '@libs/contracts';
import { route, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import * as op from './audit-operations';
import { timeRange } from './time-range';

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
    ...(entry.schemaVersion && { schemaVersion: entry.schemaVersion }),
    // gRPC cannot tell an empty list from none: the version says whether the event had subjects.
    ...(entry.schemaVersion >= SUBJECTS_VERSION && { subjects: entry.subjects }),
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

export function auditRoutes(upstreams: Upstreams): Route[] {
  const audit = upstreams.audit;
  return [
    route(op.listAuditEntries, async ({ query }, { res, upstream }) => {
      const { from, before } = timeRange(query.from, query.to);
      const request: auditV1.ListEntriesRequest = {
        entityType: query.entityType ?? '',
        entityId: query.entityId ?? '',
        action: query.action ?? '',
        actorId: query.actorId ?? '',
        occurredFrom: from,
        occurredBefore: before,
        limit: query.limit,
        cursor: query.cursor ?? '',
      };
      const page = await audit.call((client) => client.listEntries, request, upstream);
      res.json({ entries: page.entries.map(toEntryJson), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) });
    }),
    route(op.verifyAuditChain, async (_input, { res, upstream }) => {
      res.json(toVerifyJson(await audit.call((client) => client.verifyChain, {}, upstream)));
    }),
    route(op.auditDeadLetters, async (_input, { res, upstream }) => {
      res.json(await audit.call((client) => client.getDeadLetters, {}, upstream));
    }),
    route(op.replayAuditDeadLetters, async ({ query }, { res, upstream }) => {
      res.json(await audit.call((client) => client.replayDeadLetters, { limit: query.limit }, upstream));
    }),
  ];
}
