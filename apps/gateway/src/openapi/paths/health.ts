import { json, operation } from '../builders';

const readiness = {
  type: 'object',
  required: ['status', 'checks', 'breakers'],
  properties: {
    status: { enum: ['ready', 'not ready'] },
    checks: {
      type: 'object',
      description: 'The gateway database and each upstream: `SERVING`, or why not.',
      additionalProperties: { type: 'string' },
    },
    breakers: {
      type: 'object',
      description: 'Circuit breaker state per upstream.',
      additionalProperties: { enum: ['closed', 'open', 'half-open'] },
    },
  },
};

export const healthPaths = {
  '/healthz': {
    get: operation({
      operationId: 'liveness',
      summary: 'The process is alive',
      tags: ['Operations'],
      permission: null,
      responses: {
        '200': json('Alive.', { type: 'object', required: ['status'], properties: { status: { const: 'ok' } } }),
      },
    }),
  },
  '/readyz': {
    get: operation({
      operationId: 'readiness',
      summary: 'The gateway database and every upstream answer',
      tags: ['Operations'],
      permission: null,
      responses: { '200': json('Ready.', readiness), '503': json('Not ready; `checks` says what is down.', readiness) },
    }),
  },
};
