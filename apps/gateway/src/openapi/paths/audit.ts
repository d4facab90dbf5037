import { json, operation, queryParam, ref } from '../builders';

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
        queryParam('limit', { type: 'integer', minimum: 1, maximum: 500, default: 50 }, 'Page size.'),
      ],
      responses: {
        '200': json('Entries, oldest first.', {
          type: 'object',
          required: ['entries'],
          properties: { entries: { type: 'array', items: ref('AuditEntry') } },
        }),
      },
    }),
  },
};
