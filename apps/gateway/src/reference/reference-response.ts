import type { Response } from 'express';
import { z } from 'zod';
import { fhirSchema, sendRepresentation, type Representation } from '../platform/http/fhir-response';
import { problem, type FhirInteraction, type ResponseDoc } from '../platform/routing/responses';

export { format, representationOf } from '../platform/http/fhir-response';

/**
 * How long a client may reuse a reference answer; data changes only on import. Type-ahead too: five minutes
 * covers the prefixes a user types again in one form (a correction, the next field), and a suggestion must not
 * outlive the reads it leads to, which an import changes for everyone after the same five minutes.
 */
const CACHE_CONTROL = 'private, max-age=300';

/**
 * Sends a reference answer in the representation asked for, as cacheable:
 * Express adds the ETag of the body and answers a matching If-None-Match with
 * 304. Only successes are marked cacheable.
 */
export function sendReference(res: Response, representation: Representation, views: { json: () => unknown; fhir: () => unknown }): void {
  markCacheable(res);
  sendRepresentation(res, representation, views);
}

/** Sends a reference answer that has no FHIR form (a code lookup: FHIR clients have CodeSystem/$lookup), as cacheable. */
export function sendReferenceJson(res: Response, body: unknown, cacheControl = CACHE_CONTROL): void {
  markCacheable(res, cacheControl);
  res.json(body);
}

/** Sends a reference answer that exists only in FHIR (the terminology operations), as cacheable. */
export function sendReferenceFhir(res: Response, resource: unknown): void {
  markCacheable(res);
  res.type('application/fhir+json').send(JSON.stringify(resource));
}

function markCacheable(res: Response, cacheControl = CACHE_CONTROL): void {
  res.setHeader('Cache-Control', cacheControl);
  res.vary('Accept');
  res.vary('Authorization');
}

/** The headers of a cacheable reference answer, as documented. */
const cacheHeaders = (cacheControl = CACHE_CONTROL) => ({
  ETag: { description: 'A digest of the body; send it as `If-None-Match` to revalidate.', schema: z.string() },
  'Cache-Control': { schema: z.string().meta({ examples: [cacheControl] }) },
});

/** The answers of a cacheable reference read in JSON alone. */
export function referenceJsonResponses(
  description: string,
  schema: z.ZodType,
  notFound?: string,
  cacheControl = CACHE_CONTROL,
): Record<string, ResponseDoc> {
  return {
    '200': { description, headers: cacheHeaders(cacheControl), content: { 'application/json': schema } },
    '304': { description: 'Not modified: the `If-None-Match` ETag still holds.' },
    ...(notFound ? { '404': problem(notFound) } : {}),
  };
}

/** The answers of a cacheable reference read in FHIR alone (the terminology operations: FHIR clients call them). */
export function referenceFhirResponses(description: string, fhir: FhirInteraction, notFound?: string): Record<string, ResponseDoc> {
  return {
    '200': { description, fhir, headers: cacheHeaders(), content: { 'application/fhir+json': fhirSchema(fhir) } },
    '304': { description: 'Not modified: the `If-None-Match` ETag still holds.' },
    ...(notFound ? { '404': problem(notFound) } : {}),
  };
}

/**
 * The answers of a cacheable reference read: JSON in the API's shape, or FHIR
 * R4 (its own media type, so that a generated client's JSON type has no FHIR
 * union member) on request, with an ETag; 304 to a matching If-None-Match.
 */
export function referenceResponses(description: string, schema: z.ZodType, fhir: FhirInteraction, notFound?: string): Record<string, ResponseDoc> {
  return {
    '200': {
      description,
      fhir,
      headers: cacheHeaders(),
      content: { 'application/json': schema, 'application/fhir+json': fhirSchema(fhir) },
    },
    '304': { description: 'Not modified: the `If-None-Match` ETag still holds.' },
    ...(notFound ? { '404': problem(notFound) } : {}),
  };
}
