import { grantedRoles, type Permission } from '../auth/permissions';

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1). */
export type Schema = Record<string, unknown>;
export type Responses = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

export const json = (description: string, schema: Schema, headers?: Record<string, unknown>) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema } },
});

export const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ref('Problem') } },
});

export const queryParam = (name: string, schema: Schema, description: string, required = false) => ({
  name,
  in: 'query',
  required,
  description,
  schema,
});

export const pathParam = (name: string, description: string, schema: Schema = { type: 'string' }) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema,
});

export const booleanParam = (name: string, description: string, fallback: boolean) =>
  queryParam(name, { type: 'string', enum: ['true', 'false'], default: String(fallback) }, description);

export const cursorParam = queryParam(
  'cursor',
  { type: 'string', maxLength: 2048 },
  'The `nextCursor` of the previous page, sent unchanged. A tampered cursor, or one sent with other filters, is refused with 400.',
);

export const formatParam = queryParam(
  '_format',
  { enum: ['fhir', 'json', 'application/json', 'application/fhir+json'] },
  'Output format: `fhir` (or `Accept: application/fhir+json`) answers in HL7 FHIR R4 JSON.',
);

/**
 * The answers of a cacheable reference read: JSON in the shape of the spec, or
 * FHIR R4 on request, with an ETag; 304 to a matching If-None-Match.
 */
export function referenceResponses(description: string, schema: Schema, fhirResource: string, notFound?: string): Responses {
  return {
    '200': {
      description,
      headers: {
        ETag: { description: 'A digest of the body; send it as `If-None-Match` to revalidate.', schema: { type: 'string' } },
        'Cache-Control': { schema: { type: 'string', examples: ['private, max-age=300'] } },
      },
      content: {
        'application/json': { schema },
        'application/fhir+json': {
          schema: {
            type: 'object',
            required: ['resourceType'],
            properties: { resourceType: { type: 'string', examples: [fhirResource] } },
            description: `FHIR R4: ${fhirResource}. See docs/REFERENCE.md for the mapping.`,
          },
        },
      },
    },
    '304': { description: 'Not modified: the `If-None-Match` ETag still holds.' },
    ...(notFound ? { '404': problem(notFound) } : {}),
  };
}

export const jsonBody = (schema: Schema, required = true) => ({
  required,
  content: { 'application/json': { schema } },
});

export const idempotencyKeyHeader = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'A retry with the same key by the same user within 24 h returns the first response and writes nothing new; the same key with another request → 409.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

export const ifMatchHeader = {
  name: 'If-Match',
  in: 'header',
  required: true,
  description: 'The ETag of the version being changed, or `*` to overwrite. Without it → 428; stale → 412.',
  schema: { type: 'string' },
};

export const etagHeader = { ETag: { description: 'The record version, e.g. `"3"`.', schema: { type: 'string' } } };

export interface OperationSpec {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /**
   * The permission the route checks; `null` for a public operation; `account`
   * for any signed-in user (a session token or an API key).
   */
  permission: Permission | 'account' | null;
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Responses;
}

/** The fields on every answer to a request made with an API key (docs/IDENTITY.md, "Limits"). */
const rateLimitHeaders = {
  'RateLimit-Policy': {
    description:
      'The key\'s limits (draft-ietf-httpapi-ratelimit-headers-11): `"minute";q=<requests>;w=60, "day";q=<requests>;w=86400, "concurrency";q=<requests in flight>;qu="concurrent-requests"`.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'What is left: `"minute";r=<left>;t=<seconds>, "day";r=<left>;t=<seconds to UTC midnight>, "concurrency";r=<places left>`.',
    schema: { type: 'string' },
  },
};

const tooManyRequests = {
  ...problem(
    'Over one of the key\'s limits (type `https://iana.org/assignments/http-problem-types#quota-exceeded`, `violated-policies` names it: `minute`, `day` or `concurrency`).',
  ),
  headers: {
    'Retry-After': { description: 'Seconds until a retry can succeed.', schema: { type: 'integer', minimum: 1 } },
    ...rateLimitHeaders,
  },
};

/** Adds the rate-limit fields to an operation's successful answers. */
const withRateLimitHeaders = (responses: Responses): Responses =>
  Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      if (!status.startsWith('2')) return [status, response];
      const { headers, ...rest } = response as { headers?: Record<string, unknown> };
      return [status, { ...rest, headers: { ...headers, ...rateLimitHeaders } }];
    }),
  );

/**
 * An operation with what every operation shares: the bearer-key requirement
 * and its 401/403/429 answers (and the rate-limit fields), the 400 for bad
 * input, and a default problem for 5xx. Roles come from the permission table,
 * so the document cannot disagree with what the gateway enforces.
 */
export function operation(spec: OperationSpec) {
  const { permission, ...rest } = spec;
  const secured = permission !== null;
  const access =
    permission === null
      ? 'Public: no API key needed.'
      : permission === 'account'
        ? 'Requires a session token (from login) or an API key, of any role.'
        : `Requires an API key with the \`${permission}\` permission (roles: ${grantedRoles(permission).join(', ')}).`;
  return {
    ...rest,
    description: [spec.description, access].filter(Boolean).join('\n\n'),
    security: secured ? [{ bearerKey: [] }] : [],
    ...(secured && permission !== 'account' ? { 'x-permission': permission } : {}),
    responses: {
      ...(secured ? withRateLimitHeaders(spec.responses) : spec.responses),
      ...(spec.parameters?.length || spec.requestBody ? { '400': problem('The request is malformed; `errors` names each bad field or parameter.') } : {}),
      ...(secured
        ? {
            '401': problem('No API key, or an unknown or revoked one. Carries `WWW-Authenticate: Bearer`.'),
            '403': problem('The key is valid but its role lacks the permission.'),
            '429': tooManyRequests,
          }
        : {}),
      default: problem('Any other failure: 429, 500, 503 (with `Retry-After`) or 504.'),
    },
  };
}
