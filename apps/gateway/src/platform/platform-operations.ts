import { z } from 'zod';
import { LANDING_LINKS } from './landing-links';
import { operation } from './routing/operation';
import { json, problem, unauthorized } from './routing/responses';

/** The gateway's own operations: health, documentation and the changelog. */

const tag = 'Operations';
const access = { public: true } as const;

const readiness = z.object({
  status: z.enum(['ready', 'not ready']),
  checks: z
    .record(z.string(), z.string())
    .optional()
    .meta({ description: 'Only with an admin key. The gateway database and each upstream: `SERVING`, or why not.' }),
  breakers: z
    .record(z.string(), z.enum(['closed', 'open', 'half-open']))
    .optional()
    .meta({ description: 'Only with an admin key. Circuit breaker state per upstream.' }),
});

const release = z.object({
  version: z.string().meta({ examples: ['0.2.0'] }),
  date: z.string().nullable().meta({ format: 'date', description: 'Null only for the Unreleased section.' }),
  changes: z.record(z.string(), z.array(z.string())).meta({
    description: 'Keep a Changelog change types (Added, Changed, Deprecated, Removed, Fixed, Security) → items.',
  }),
});

export const changelog = operation({
  method: 'get',
  path: '/api/v1/changelog',
  operationId: 'changelog',
  summary: 'The dated changelog (CHANGELOG.md) as JSON',
  tag,
  access,
  request: {},
  responses: { '200': json('Releases, newest first.', z.object({ releases: z.array(release) })) },
});

export const liveness = operation({
  method: 'get',
  path: '/healthz',
  operationId: 'liveness',
  summary: 'The process is alive',
  tag,
  access,
  request: {},
  responses: { '200': json('Alive.', z.object({ status: z.literal('ok') })) },
});

export const readinessCheck = operation({
  method: 'get',
  path: '/readyz',
  operationId: 'readiness',
  summary: 'The gateway database and every upstream answer',
  description:
    'Without `Authorization` (a probe), the status alone. With an API key holding `health:details` (admin), also ' +
    'each check and circuit breaker, which name internal addresses; any other key is refused.',
  tag,
  access: { keyIfGiven: 'health:details' },
  request: {},
  responses: {
    '200': json('Ready.', readiness),
    '503': json('Not ready; with an admin key, `checks` says what is down.', readiness),
    '401': unauthorized('An `Authorization` header whose key is unknown or revoked.'),
    '403': problem('A key without the `health:details` permission.'),
  },
});

export const openApiDocument = operation({
  method: 'get',
  path: '/openapi.json',
  operationId: 'openApiDocument',
  summary: 'This OpenAPI 3.1 document',
  tag,
  access,
  request: {},
  responses: { '200': json('The document.', z.object({})) },
});

export const apiDocs = operation({
  method: 'get',
  path: '/docs',
  operationId: 'apiDocs',
  summary: 'Human-readable API documentation, rendered from this document',
  tag,
  access,
  request: {},
  responses: { '200': { description: 'An HTML page.', content: { 'text/html': null } } },
});

const linkSchema = z.object({ href: z.string(), title: z.string() });

export const landing = operation({
  method: 'get',
  path: '/',
  operationId: 'landing',
  summary: 'Where to start: links to the docs, dashboard, changelog and status',
  description: 'A short HTML page for a browser (`Accept: text/html`); a JSON index of the same links otherwise.',
  tag,
  access,
  request: {},
  responses: {
    '200': {
      description: 'The links, as JSON or as an HTML page.',
      content: {
        'application/json': z.object({
          name: z.string(),
          version: z.string(),
          links: z.object(Object.fromEntries(Object.keys(LANDING_LINKS).map((name) => [name, linkSchema])) as Record<keyof typeof LANDING_LINKS, typeof linkSchema>),
        }),
        'text/html': null,
      },
    },
  },
});
