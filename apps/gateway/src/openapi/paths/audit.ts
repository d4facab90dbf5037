import { cursorParam, json, operation, queryParam, ref } from '../builders';

export const auditSchemas = {
  AuditEntry: {
    type: 'object',
    required: ['sequence', 'eventId', 'occurredAt', 'recordedAt', 'action', 'entityType', 'entityIds', 'actor', 'requestId', 'before', 'after', 'prevHash', 'hash'],
    properties: {
      sequence: { type: 'integer', minimum: 1 },
      eventId: { type: 'string', format: 'uuid' },
      occurredAt: { type: 'string', format: 'date-time' },
      recordedAt: { type: 'string', format: 'date-time' },
      action: { type: 'string', examples: ['transaction.created', 'payment.processed'] },
      entityType: { type: 'string' },
      entityIds: { type: 'array', items: { type: 'string' } },
      actor: {
        type: 'object',
        required: ['userId', 'role'],
        properties: { userId: { type: 'string' }, role: { type: 'string' } },
      },
      requestId: { type: 'string' },
      traceId: { type: 'string', description: 'W3C trace id of the request that caused the change.' },
      before: { description: 'The record before the change; null on create.' },
      after: { description: 'The record after the change; null on delete.' },
      prevHash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
      hash: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'sha256(prevHash + canonical JSON of the entry).' },
    },
  },
};

export const auditPaths = {
  '/api/v1/audit': {
    get: operation({
      operationId: 'listAuditEntries',
      summary: 'Audit log entries',
      tags: ['Audit'],
      permission: 'audit:read',
      parameters: [
        queryParam('entityType', { type: 'string', maxLength: 64 }, 'e.g. `transaction`.'),
        queryParam('entityId', { type: 'string', maxLength: 64 }, 'Entries that list this id.'),
        queryParam('action', { type: 'string', maxLength: 64 }, 'e.g. `transaction.created`.'),
        queryParam('actorId', { type: 'string', maxLength: 64 }, 'Entries made by this user id.'),
        queryParam('from', { type: 'string', maxLength: 40 }, 'Inclusive start: a day (`YYYY-MM-DD`, UTC) or a timestamp with offset.'),
        queryParam('to', { type: 'string', maxLength: 40 }, 'Inclusive end: a whole day, or a timestamp with offset.'),
        queryParam('limit', { type: 'integer', minimum: 1, maximum: 500, default: 50 }, 'Page size.'),
        cursorParam,
      ],
      responses: {
        '200': json('Entries, newest first.', {
          type: 'object',
          required: ['entries'],
          properties: { entries: { type: 'array', items: ref('AuditEntry') }, nextCursor: { type: 'string' } },
        }),
      },
    }),
  },
  '/api/v1/audit/verify': {
    get: operation({
      operationId: 'verifyAuditChain',
      summary: 'Recompute the hash chain and name the first bad entry',
      tags: ['Audit'],
      permission: 'audit:read',
      responses: {
        '200': json('The verdict.', {
          oneOf: [
            {
              type: 'object',
              required: ['intact', 'checked', 'lastHash'],
              properties: {
                intact: { const: true },
                checked: { type: 'integer', minimum: 0 },
                lastHash: { type: ['string', 'null'] },
              },
            },
            {
              type: 'object',
              required: ['intact', 'checked', 'firstBadEntry'],
              properties: {
                intact: { const: false },
                checked: { type: 'integer', minimum: 0 },
                firstBadEntry: {
                  type: 'object',
                  required: ['sequence', 'eventId', 'problem'],
                  properties: {
                    sequence: { type: 'integer' },
                    eventId: { type: 'string' },
                    problem: { type: 'string', description: 'Which hash does not match, and why.' },
                  },
                },
              },
            },
          ],
        }),
      },
    }),
  },
  '/api/v1/audit/dead-letters': {
    get: operation({
      operationId: 'auditDeadLetters',
      summary: 'Depth of the dead-letter queue',
      description: 'Events the audit service could not store end up here; see docs/AUDIT.md for what to do.',
      tags: ['Audit'],
      permission: 'audit:read',
      responses: {
        '200': json('The queue and its depth.', {
          type: 'object',
          required: ['queue', 'depth'],
          properties: { queue: { type: 'string' }, depth: { type: 'integer', minimum: 0 } },
        }),
      },
    }),
  },
  '/api/v1/audit/dead-letters/replay': {
    post: operation({
      operationId: 'replayAuditDeadLetters',
      summary: 'Put dead letters back on the exchange',
      description:
        'Each message is confirmed by the broker before it leaves the dead-letter queue. Replayed events already stored are recognised as duplicates. A replay stops in time to answer within the gateway\'s deadline; when `stoppedAtDeadline` is true, call again for the rest. Messages that fail again come back to the queue and count in `remaining`.',
      tags: ['Audit'],
      permission: 'audit:replay',
      parameters: [queryParam('limit', { type: 'integer', minimum: 1, maximum: 10000, default: 10000 }, 'At most this many.')],
      responses: {
        '200': json('How many moved, how many are in the queue now, and whether the replay stopped for the deadline.', {
          type: 'object',
          required: ['replayed', 'remaining', 'stoppedAtDeadline'],
          properties: {
            replayed: { type: 'integer', minimum: 0 },
            remaining: { type: 'integer', minimum: 0 },
            stoppedAtDeadline: { type: 'boolean' },
          },
        }),
      },
    }),
  },
};
