import { z } from 'zod';
import { AUDIT_LIMITS, MEMORY_BUDGETS } from '@libs/contracts';
import { operation } from '../platform/routing/operation';
import { cursor, queryInteger, queryOf, queryText } from '../platform/routing/query-fields';
import { json, page, problem } from '../platform/routing/responses';
import { auditEntry, chainVerdict, checkpoint, checkpointKey, deadLetters, replayOutcome } from './schemas';
import { instant } from './time-range';

const tag = 'Audit';
const filter = (description: string) => queryText(AUDIT_LIMITS.filterMaxLength).optional().meta({ description });
const bound = (description: string) => queryOf(instant).optional().meta({ description });

export const listAuditEntries = operation({
  method: 'get',
  path: '/api/v1/audit',
  operationId: 'listAuditEntries',
  summary: 'Audit log entries',
  tag,
  access: { key: 'audit:read' },
  request: {
    query: z.object({
      entityType: filter('e.g. `transaction`.'),
      entityId: filter('Entries that list this id.'),
      action: filter('e.g. `transaction.created`.'),
      actorId: filter('Entries made by this user id.'),
      from: bound('Inclusive start: a day (`YYYY-MM-DD`, UTC) or a timestamp with offset.'),
      to: bound('Inclusive end: a whole day, or a timestamp with offset.'),
      limit: queryInteger(AUDIT_LIMITS.page).meta({
        description: `Page size, at most: a page also ends before its entries' \`before\` and \`after\` pass ${MEMORY_BUDGETS.auditPageBytes / 1024 / 1024} MiB (always holding at least one), so it may hold fewer, with a \`nextCursor\` to the rest. Follow \`nextCursor\` until it is absent; a short page is not the last.`,
      }),
      cursor,
    }),
  },
  responses: { '200': json('Entries, newest first.', page('entries', auditEntry)) },
});

export const verifyAuditChain = operation({
  method: 'get',
  path: '/api/v1/audit/verify',
  operationId: 'verifyAuditChain',
  summary: 'Recompute the hash chain and name the first bad entry',
  tag,
  access: { key: 'audit:read' },
  request: {},
  responses: { '200': json('The verdict.', chainVerdict) },
});

export const listAuditCheckpoints = operation({
  method: 'get',
  path: '/api/v1/audit/checkpoints',
  operationId: 'listAuditCheckpoints',
  summary: "Signed checkpoints of the chain's head, and the keys that verify them",
  description:
    'Keep copies of these outside the system: a checkpoint proves what the chain held when it was signed, so a ' +
    'rewrite of older entries (with every later hash recomputed) contradicts it, and so does a deleted checkpoint you ' +
    'still hold. Newest first.',
  tag,
  access: { key: 'audit:read' },
  request: { query: z.object({ limit: queryInteger(AUDIT_LIMITS.checkpointPage).meta({ description: 'Page size.' }), cursor }) },
  responses: { '200': json('Checkpoints and keys.', page('checkpoints', checkpoint).extend({ keys: z.array(checkpointKey) })) },
});

export const createAuditCheckpoint = operation({
  method: 'post',
  path: '/api/v1/audit/checkpoints',
  operationId: 'createAuditCheckpoint',
  summary: "Sign the chain's head now",
  description: 'Answers the checkpoint of the current head; when that head is signed already, the same checkpoint (so asking again adds nothing).',
  tag,
  access: { key: 'audit:read' },
  request: {},
  responses: {
    '200': json('The checkpoint of the head.', checkpoint),
    '409': problem('The chain is empty: there is nothing to sign yet.'),
  },
});

export const auditDeadLetters = operation({
  method: 'get',
  path: '/api/v1/audit/dead-letters',
  operationId: 'auditDeadLetters',
  summary: 'Depth of the dead-letter queue',
  description: 'Events the audit service could not store end up here; see docs/AUDIT.md for what to do.',
  tag,
  access: { key: 'audit:read' },
  request: {},
  responses: { '200': json('The queue and its depth.', deadLetters) },
});

export const replayAuditDeadLetters = operation({
  method: 'post',
  path: '/api/v1/audit/dead-letters/replay',
  operationId: 'replayAuditDeadLetters',
  summary: 'Put dead letters back on the exchange',
  description:
    'Each message is confirmed by the broker before it leaves the dead-letter queue. Replayed events already stored are recognised as duplicates. A replay stops in time to answer within the gateway\'s deadline; when `stoppedAtDeadline` is true, call again for the rest. Messages that fail again come back to the queue and count in `remaining`.',
  tag,
  access: { key: 'audit:replay' },
  request: { query: z.object({ limit: queryInteger(AUDIT_LIMITS.replay).meta({ description: 'At most this many.' }) }) },
  responses: {
    '200': json('How many moved, how many are in the queue now, and whether the replay stopped for the deadline.', replayOutcome),
  },
});
