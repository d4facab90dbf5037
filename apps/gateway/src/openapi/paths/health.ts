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

const release = {
  type: 'object',
  required: ['version', 'date', 'changes'],
  properties: {
    version: { type: 'string', examples: ['0.2.0'] },
    date: { type: ['string', 'null'], format: 'date', description: 'Null only for the Unreleased section.' },
    changes: {
      type: 'object',
      description: 'Keep a Changelog change types (Added, Changed, Deprecated, Removed, Fixed, Security) → items.',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
  },
};

export const healthPaths = {
  '/api/v1/changelog': {
    get: operation({
      operationId: 'changelog',
      summary: 'The dated changelog (CHANGELOG.md) as JSON',
      tags: ['Operations'],
      permission: null,
      responses: {
        '200': json('Releases, newest first.', {
          type: 'object',
          required: ['releases'],
          properties: { releases: { type: 'array', items: release } },
        }),
      },
    }),
  },
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
