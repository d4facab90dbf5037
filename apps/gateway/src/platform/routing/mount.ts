import type { Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import { fieldErrorsOf } from '@libs/contracts';
import { METADATA, type Metadata } from '@libs/grpc';
import { HttpProblem } from '@libs/http-problems';
import type { FieldProblem } from '@libs/safe-text';
import { methodNotAllowed, methodsByPath } from './method-not-allowed';
import { markFhirErrors, servesFhir, servesOnlyFhir } from '../http/fhir-request';
import { expectedVersion } from '../http/if-match';
import { parseBody } from '../http/json-body';
import type { UpstreamCall } from '../upstreams/upstream';
import type { AccessCheck, CallerKey } from './access';
import { routesByPrefix, type RouteEntry } from './dispatch';
import type { OperationSpec, ParsedRequest, RequestSchemas, Route } from './operation';

/** `/api/v1/transactions/{id}` → `/api/v1/transactions/:id`. */
export const expressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

export const operationPaths = (spec: OperationSpec) => [spec.path, ...(spec.aliases ?? []).map((alias) => alias.path)];

/** The headers a request carries for a header schema's names, as Express reads them (case-insensitively). */
const headersFor = (req: Request, shape: z.ZodObject) => Object.fromEntries(Object.keys(shape.shape).map((name) => [name, req.get(name)]));

/** Parses path, query and headers together: every bad parameter is named in one 400. */
function parseParameters<R extends RequestSchemas>(schemas: R, req: Request) {
  const errors: FieldProblem[] = [];
  const parse = (schema: z.ZodObject | undefined, value: unknown) => {
    if (!schema) return {};
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    errors.push(...fieldErrorsOf(result.error));
    return {};
  };
  const parsed = {
    path: parse(schemas.path, req.params),
    query: parse(schemas.query, req.query),
    headers: parse(schemas.headers, schemas.headers ? headersFor(req, schemas.headers) : {}),
  };
  if (errors.length > 0) throw HttpProblem.invalidParameters(errors);
  return parsed;
}

/** What calls to the services made for this request carry, as plain values. */
function upstreamCallOf(req: Request, res: Response, key: UpstreamCall['key'], enter: UpstreamCall['enter']): UpstreamCall {
  const read = req.method === 'GET' || req.method === 'HEAD';
  // A client asking for no-cache (RFC 9111 §5.2.1.4) gets a fresh answer, which then refreshes the cache.
  const cache = !read ? 'skip' : /no-cache/i.test(req.get('cache-control') ?? '') ? 'refresh' : 'use';
  // A write that repeated an Idempotency-Key is answered with the first response, and says so (as Stripe does).
  const onHeaders = (headers: Metadata) => {
    if (headers.get(METADATA.idempotentReplayed)[0] === 'true') res.set('Idempotent-Replayed', 'true');
  };
  return { requestId: res.locals.requestId as string, key, enter, retryable: read, cache, ...(read ? {} : { onHeaders }) };
}

/**
 * Mounts declared operations: for each, its errors' format (FHIR's when it
 * serves FHIR and the client asked for it), its access rule, then its path, query
 * and header schemas, then its body (read only now, after the key check), then
 * If-Match when the operation takes it, then the handler with the parsed input.
 * The schemas are zod objects built once at start; a request only runs them.
 */
export function mountRoutes<K extends CallerKey>(routes: Route[], guard: AccessCheck<K>): RequestHandler {
  const entries: RouteEntry[] = [];
  for (const { spec, handler } of routes) {
    const { body } = spec.request;
    const fhir = servesFhir(spec);
    const onlyFhir = servesOnlyFhir(spec);
    const answer = async (req: Request, res: Response) => {
      if (fhir) markFhirErrors(req, res, onlyFhir);
      const caller = await guard.check(spec.access, req, res);
      const parameters = parseParameters(spec.request, req);
      const input = {
        ...parameters,
        body: body && !spec.bodyMedia ? await parseBody(req, res, body, spec.bodyLimit ?? 'keyed') : undefined,
        expectedVersion: spec.ifMatch ? expectedVersion(req) : 0,
      } as ParsedRequest<RequestSchemas>;
      const upstream = upstreamCallOf(req, res, caller.key, () => guard.enterCall(caller.key));
      await handler(input, { req, res, caller, upstream });
    };
    // One route per path, so that metrics and traces name the path template the request took.
    for (const path of operationPaths(spec)) entries.push({ method: spec.method, path: expressPath(path), handler: answer });
  }
  // After every operation (of its group, which holds every route its path can match): a path that exists answers
  // other methods with 405 and what it allows.
  const declared = routes.flatMap(({ spec }) => operationPaths(spec).map((path) => ({ path: expressPath(path), method: spec.method })));
  for (const [path, methods] of methodsByPath(declared)) entries.push({ method: 'all', path, handler: methodNotAllowed(methods) });
  return routesByPrefix(entries);
}
