import type { Request, Response } from 'express';
import { z } from 'zod';
import { asksForFhir, FHIR_FORMATS } from '../platform/http/fhir-request';
import { queryChoice } from '../platform/routing/query-fields';
import { problem, type FhirInteraction, type ResponseDoc } from '../platform/routing/responses';

/** What a reference response is rendered as: the API's own JSON, or HL7 FHIR R4 JSON (docs/REFERENCE.md). */
export type Representation = 'json' | 'fhir';

/** `_format`, which every reference operation takes. */
export const format = queryChoice(['json', 'application/json', ...FHIR_FORMATS])
  .optional()
  .meta({ description: 'Output format: `fhir` (or `Accept: application/fhir+json`) answers in HL7 FHIR R4 JSON.' });

/** How long a client may reuse a reference answer; data changes only on import. */
const CACHE_CONTROL = 'private, max-age=300';

/** The representation asked for: `_format`, else the Accept header. */
export function representationOf(req: Request, given: string | undefined): Representation {
  return asksForFhir(req, given) ? 'fhir' : 'json';
}

/**
 * Sends a reference answer in the representation asked for, as cacheable:
 * Express adds the ETag of the body and answers a matching If-None-Match with
 * 304. Only successes are marked cacheable.
 */
export function sendReference(res: Response, representation: Representation, views: { json: () => unknown; fhir: () => unknown }): void {
  res.setHeader('Cache-Control', CACHE_CONTROL);
  res.vary('Accept');
  res.vary('Authorization');
  if (representation === 'fhir') {
    res.type('application/fhir+json').send(JSON.stringify(views.fhir()));
  } else {
    res.json(views.json());
  }
}

/** The FHIR body's schema: enough for a client to tell a Bundle from a resource; docs/REFERENCE.md has the mapping. */
export function fhirSchema({ resourceType, interaction }: FhirInteraction): z.ZodType {
  const resource = z.looseObject({ resourceType: z.literal(resourceType), id: z.string().optional() });
  if (interaction === 'read') return resource.meta({ description: `FHIR R4 ${resourceType}.` });
  return z
    .looseObject({
      resourceType: z.literal('Bundle'),
      type: z.literal('searchset'),
      link: z.array(z.object({ relation: z.enum(['self', 'next']), url: z.string().meta({ format: 'uri' }) })),
      entry: z.array(z.object({ resource, search: z.object({ mode: z.literal('match') }) })),
    })
    .meta({ description: `FHIR R4 searchset Bundle of ${resourceType}; \`next\` is absent on the last page.` });
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
      headers: {
        ETag: { description: 'A digest of the body; send it as `If-None-Match` to revalidate.', schema: z.string() },
        'Cache-Control': { schema: z.string().meta({ examples: [CACHE_CONTROL] }) },
      },
      content: { 'application/json': schema, 'application/fhir+json': fhirSchema(fhir) },
    },
    '304': { description: 'Not modified: the `If-None-Match` ETag still holds.' },
    ...(notFound ? { '404': problem(notFound) } : {}),
  };
}
