import { json, operation, problem } from '../builders';

const readiness = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { enum: ['ready', 'not ready'] },
    checks: {
      type: 'object',
      description: 'Only with an admin key. The gateway database and each upstream: `SERVING`, or why not.',
      additionalProperties: { type: 'string' },
    },
    breakers: {
      type: 'object',
      description: 'Only with an admin key. Circuit breaker state per upstream.',
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
      description:
        'Without `Authorization` (a probe), the status alone. With an API key holding `health:details` (admin), also ' +
        'each check and circuit breaker, which name internal addresses; any other key is refused.',
      tags: ['Operations'],
      permission: null,
      responses: {
        '200': json('Ready.', readiness),
        '503': json('Not ready; with an admin key, `checks` says what is down.', readiness),
        '401': problem('An `Authorization` header whose key is unknown or revoked.'),
        '403': problem('A key without the `health:details` permission.'),
      },
    }),
  },
};
