import type { Request, Response } from 'express';
import { z } from 'zod';
import { queryChoice } from '../platform/routing/query-fields';
import { problem, type ResponseDoc } from '../platform/routing/responses';

/** What a reference response is rendered as: the API's own JSON, or HL7 FHIR R4 JSON (docs/REFERENCE.md). */
export type Representation = 'json' | 'fhir';

/** `_format`, which every reference operation takes. */
export const format = queryChoice(['fhir', 'json', 'application/json', 'application/fhir+json'])
  .optional()
  .meta({ description: 'Output format: `fhir` (or `Accept: application/fhir+json`) answers in HL7 FHIR R4 JSON.' });

/** How long a client may reuse a reference answer; data changes only on import. */
const CACHE_CONTROL = 'private, max-age=300';

/** The representation asked for: `_format`, else the Accept header. */
export function representationOf(req: Request, given: string | undefined): Representation {
  const wantsFhir = given ? given.includes('fhir') : /application\/fhir\+json/i.test(req.get('accept') ?? '');
  return wantsFhir ? 'fhir' : 'json';
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

/**
 * The answers of a cacheable reference read: JSON in the API's shape, or FHIR
 * R4 on request, with an ETag; 304 to a matching If-None-Match.
 */
export function referenceResponses(description: string, schema: z.ZodType, fhirResource: string, notFound?: string): Record<string, ResponseDoc> {
  return {
    '200': {
      description,
      headers: {
        ETag: { description: 'A digest of the body; send it as `If-None-Match` to revalidate.', schema: z.string() },
        'Cache-Control': { schema: z.string().meta({ examples: [CACHE_CONTROL] }) },
      },
      content: {
        'application/json': schema,
        'application/fhir+json': z
          .object({ resourceType: z.string().meta({ examples: [fhirResource] }) })
          .meta({ description: `FHIR R4: ${fhirResource}. See docs/REFERENCE.md for the mapping.` }),
      },
    },
    '304': { description: 'Not modified: the `If-None-Match` ETag still holds.' },
    ...(notFound ? { '404': problem(notFound) } : {}),
  };
}
