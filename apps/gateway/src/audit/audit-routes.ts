import { SUBJECTS_VERSION, type auditV1 } from '@libs/contracts';
import { HttpProblem } from '@libs/http-problems';
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
  const checkpointsChecked = Number(result.checkpointsChecked);
  if (result.intact) return { intact: true, checked, lastHash: result.lastHash || null, checkpointsChecked };
  const broken = result.firstBreak;
  return {
    intact: false,
    checked,
    checkpointsChecked,
    firstBadEntry: broken && { sequence: Number(broken.sequence), eventId: broken.eventId, problem: broken.problem },
  };
}

const toCheckpointJson = (checkpoint: auditV1.Checkpoint) => ({ ...checkpoint, sequence: Number(checkpoint.sequence) });

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
    route(op.listAuditCheckpoints, async ({ query }, { res, upstream }) => {
      const page = await audit.call((client) => client.listCheckpoints, { limit: query.limit, cursor: query.cursor ?? '' }, upstream);
      res.json({
        checkpoints: page.checkpoints.map(toCheckpointJson),
        keys: page.keys.map(({ keyId, x, current }) => ({ keyId, kty: 'OKP', crv: 'Ed25519', x, current })),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      });
    }),
    route(op.createAuditCheckpoint, async (_input, { res, upstream }) => {
      const { checkpoint } = await audit.call((client) => client.createCheckpoint, {}, upstream);
      if (!checkpoint) throw new HttpProblem(409, 'The audit chain is empty: there is nothing to sign yet.');
      res.json(toCheckpointJson(checkpoint));
    }),
    route(op.auditDeadLetters, async (_input, { res, upstream }) => {
      res.json(await audit.call((client) => client.getDeadLetters, {}, upstream));
    }),
    route(op.replayAuditDeadLetters, async ({ query }, { res, upstream }) => {
      res.json(await audit.call((client) => client.replayDeadLetters, { limit: query.limit }, upstream));
    }),
  ];
}
