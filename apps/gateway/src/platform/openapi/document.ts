import { z } from 'zod';
import { grantedRoles } from '@libs/contracts';
import type { DescribedApi } from '../routing/area';
import type { OperationSpec, RequestSchemas } from '../routing/operation';
import { idempotentReplayed, takesIdempotencyKey } from '../routing/headers';
import { operationPaths } from '../routing/mount';
import { servesFhir } from '../http/fhir-request';
import { operationOutcomeSchema, problem, unauthorized, type ResponseDoc } from '../routing/responses';
import { JsonSchemas } from './json-schemas';
import { rateLimitHeaders, tooManyRequests } from './rate-limit-responses';
import type { WebhookSpec } from './webhook-spec';

const DESCRIPTION = `Clinical reference data and student finance, through one gateway.

- **Keys**: every \`/api/v1/*\` and \`/dosages*\` operation needs \`Authorization: Bearer <API key>\` unless it says it is public.
- **Errors** are RFC 9457 problem details (\`application/problem+json\`) with the request id; a 400 lists each bad field or parameter in \`errors\`.
- **Pagination**: lists return \`nextCursor\` while more results exist; send it back unchanged as \`cursor\`. It is absent on the last page. Cursors are signed and bound to the query that made them.
- **Request ids**: every response carries the request's own id in \`X-Request-Id\`, made by the gateway; it is in problem details and stored with audit entries. Send your own \`X-Request-Id\` (letters, digits, \`._:-\`, up to 128) and it is echoed in \`X-Client-Request-Id\` and logged beside ours.`;

const TAGS = [
  { name: 'Identity', description: 'Accounts, sign-in and API keys. The dashboard at /dashboard uses these.' },
  { name: 'Reference', description: 'Read-only clinical reference data.' },
  { name: 'Finance', description: 'Student transactions, proofs of payment and their records.' },
  { name: 'Finance records', description: 'Accounts, categories, students, registration numbers and statements.' },
  { name: 'Appointments', description: 'Holds, bookings and their moves, as JSON, FHIR R4 Appointment or iCalendar.' },
  { name: 'Audit', description: 'The hash-chained log of every finance and scheduling change.' },
  {
    name: 'Scheduling',
    description:
      'Bookable locations, resources, services, weekly hours, date overrides, blocks and free slots (docs/SCHEDULING.md). Instants carry their offset; resources and slots also answer in FHIR R4 (`Schedule`, `Slot`).',
  },
  {
    name: 'Webhooks',
    description:
      'Endpoints that receive a signed POST for each event their owner could read through the API, the deliveries log, and (under `webhooks`) what each event sends (docs/WEBHOOKS.md).',
  },
  { name: 'Operations', description: 'Health and documentation.' },
];

const securitySchemes = {
  bearerKey: { type: 'http', scheme: 'bearer', description: 'An API key (`cfk_…`) sent as `Authorization: Bearer <key>`.' },
};

const IF_MATCH = {
  name: 'If-Match',
  in: 'header',
  required: false,
  description: 'The ETag of the version being changed, or `*`. Optional: without it the last write wins; stale → 412.',
  schema: { type: 'string' },
};

const ifMatchResponses = {
  '412': problem('The If-Match version is not the current one: fetch again and reapply.'),
};

const retryAfter = { description: 'Seconds to wait before retrying (with 503).', schema: z.int().min(0) };

const requestIdHeader = {
  'X-Request-Id': { description: "The request's id, made by the gateway (quote it when reporting a problem).", schema: z.string() },
  'X-Client-Request-Id': { description: 'The X-Request-Id the client sent, when it was plain; absent otherwise.', schema: z.string() },
};

function accessText(spec: OperationSpec): string {
  const { access } = spec;
  if ('public' in access) return 'Public: no API key needed.';
  if ('keyIfGiven' in access) return `Public; an \`Authorization\` header must carry an API key with the \`${access.keyIfGiven}\` permission.`;
  const permission = 'key' in access ? access.key : access.account;
  if (permission === 'any') return 'Requires a session token (from login) or an API key, of any role.';
  return `Requires an API key with the \`${permission}\` permission (roles: ${grantedRoles(permission).join(', ')}).`;
}

const permissionOf = (spec: OperationSpec) =>
  'key' in spec.access ? spec.access.key : 'account' in spec.access && spec.access.account !== 'any' ? spec.access.account : undefined;

/** Generates the OpenAPI 3.1 document from the operations' declarations. */
class DocumentWriter {
  readonly schemas = new JsonSchemas();

  parameters(request: RequestSchemas) {
    const place = (where: 'path' | 'query' | 'header', shape: z.ZodObject | undefined) =>
      Object.entries(shape?.shape ?? {}).map(([name, field]) => {
        const { description, ...schema } = this.schemas.of(field as z.ZodType, 'output');
        return {
          name,
          in: where,
          required: where === 'path' || !(field as z.ZodType).safeParse(undefined).success,
          ...(description ? { description } : {}),
          schema,
        };
      });
    return [...place('path', request.path), ...place('query', request.query), ...place('header', request.headers)];
  }

  /** `fhir`: the operation answers FHIR on request, and then its problems as OperationOutcome too. */
  response(doc: ResponseDoc, fhir = false) {
    const content =
      fhir && doc.content?.['application/problem+json'] ? { ...doc.content, 'application/fhir+json': operationOutcomeSchema } : doc.content;
    return {
      description: doc.description,
      ...(doc.headers && {
        headers: Object.fromEntries(
          Object.entries(doc.headers).map(([name, header]) => [
            name,
            { ...(header.description ? { description: header.description } : {}), schema: this.schemas.of(header.schema, 'output') },
          ]),
        ),
      }),
      ...(content && {
        content: Object.fromEntries(
          Object.entries(content).map(([type, schema]) => [type, schema ? { schema: this.schemas.of(schema, 'input') } : {}]),
        ),
      }),
    };
  }

  operation(spec: OperationSpec, operationId: string) {
    const secured = !('public' in spec.access) && !('keyIfGiven' in spec.access);
    const parameters = [...this.parameters(spec.request), ...(spec.ifMatch ? [IF_MATCH] : [])];
    const body = spec.request.body;
    const responses: Record<string, ResponseDoc> = {
      ...spec.responses,
      ...(spec.ifMatch ? ifMatchResponses : {}),
      ...(parameters.length || body ? { '400': problem('The request is malformed; `errors` names each bad field or parameter.') } : {}),
      ...(secured ? { '401': unauthorized('No API key, or an unknown or revoked one.'), '403': problem('The key is valid but its role lacks the permission.'), '429': tooManyRequests } : {}),
      // Node answers these for any path, before an operation runs.
      '4XX': problem('The request is not acceptable HTTP: malformed (400), too slow to arrive (408), headers too large (431).'),
      default: problem('Any other failure: 429, 500, 503 (with `Retry-After`) or 504.', { 'Retry-After': retryAfter }),
    };
    const fhir = servesFhir(spec);
    const documented = Object.fromEntries(
      Object.entries(responses).map(([status, doc]) => {
        // Every answer to a request made with a key carries the key's limits; every answer carries its request id.
        const limits = secured && status.startsWith('2') ? rateLimitHeaders : {};
        // A retried write is answered with the first response, marked as such.
        const replayable = takesIdempotencyKey(spec.request.headers) && status.startsWith('2');
        const replay = replayable ? idempotentReplayed : {};
        return [status, this.response({ ...doc, headers: { ...doc.headers, ...limits, ...replay, ...requestIdHeader } }, fhir)];
      }),
    );
    const permission = permissionOf(spec);
    return {
      operationId,
      summary: spec.summary,
      description: [spec.description, accessText(spec)].filter(Boolean).join('\n\n'),
      tags: [spec.tag],
      ...(parameters.length ? { parameters } : {}),
      ...(body && {
        requestBody: {
          // A body schema that takes undefined (`.optional()`) makes the body optional.
          required: !body.safeParse(undefined).success,
          content: { [spec.bodyMedia ?? 'application/json']: { schema: this.schemas.of(body, 'input') } },
        },
      }),
      security: secured ? [{ bearerKey: [] }] : [],
      ...(permission ? { 'x-permission': permission } : {}),
      responses: documented,
    };
  }

  /** A request the API sends: the `post` of its entry under `webhooks`. */
  webhook(spec: WebhookSpec) {
    return {
      post: {
        operationId: spec.operationId,
        summary: spec.summary,
        ...(spec.description ? { description: spec.description } : {}),
        tags: [spec.tag],
        parameters: this.parameters({ headers: spec.headers }),
        // Read as bodies and answers are (`input`), so a schema shared with them is one component.
        requestBody: { required: true, content: { 'application/json': { schema: this.schemas.of(spec.payload, 'input') } } },
        // Signed with the endpoint's secret, not sent with an API key.
        security: [],
        responses: Object.fromEntries(Object.entries(spec.responses).map(([status, doc]) => [status, this.response(doc)])),
      },
    };
  }
}

/**
 * The OpenAPI 3.1 document of every gateway operation and every webhook it sends; served at /openapi.json. Its
 * server is the configured public base URL, else "/": clients resolve that against where they fetched the document.
 */
export function buildOpenApiDocument({ operations, webhooks }: DescribedApi, version: string, publicBaseUrl?: string) {
  const writer = new DocumentWriter();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of operations) {
    const ids = [spec.operationId, ...(spec.aliases ?? []).map((alias) => alias.operationId)];
    operationPaths(spec).forEach((path, index) => {
      paths[path] = { ...paths[path], [spec.method]: writer.operation(spec, ids[index]) };
    });
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Clinical reference and student finance API',
      version,
      description: DESCRIPTION,
      // package.json's UNLICENSED: no open-source licence, hence SPDX's form for a licence of one's own.
      license: { name: 'Proprietary (UNLICENSED): all rights reserved', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: publicBaseUrl ?? '/', description: publicBaseUrl ? 'This gateway' : 'The gateway that serves this document' }],
    tags: TAGS,
    paths,
    webhooks: Object.fromEntries(webhooks.map((spec) => [spec.name, writer.webhook(spec)])),
    components: { schemas: writer.schemas.components, securitySchemes },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
