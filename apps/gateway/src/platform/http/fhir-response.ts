import type { Request, Response } from 'express';
import { z } from 'zod';
import { queryChoice } from '../routing/query-fields';
import type { FhirInteraction, ResponseDoc } from '../routing/responses';
import { asksForFhir, FHIR_FORMATS } from './fhir-request';

/** What an answer is rendered as: the API's own JSON, or HL7 FHIR R4 JSON (docs/REFERENCE.md, "FHIR"). */
export type Representation = 'json' | 'fhir';

/** `_format`, which every operation that can answer in FHIR takes. */
export const format = queryChoice(['json', 'application/json', ...FHIR_FORMATS])
  .optional()
  .meta({ description: 'Output format: `fhir` (or `Accept: application/fhir+json`) answers in HL7 FHIR R4 JSON.' });

/** The representation asked for: `_format`, else the Accept header. */
export function representationOf(req: Request, given: string | undefined): Representation {
  return asksForFhir(req, given) ? 'fhir' : 'json';
}

/** Sends the representation asked for: FHIR under its own media type, or the API's JSON; caches vary on Accept. */
export function sendRepresentation(res: Response, representation: Representation, views: { json: () => unknown; fhir: () => unknown }): void {
  res.vary('Accept');
  if (representation === 'fhir') res.type('application/fhir+json').send(JSON.stringify(views.fhir()));
  else res.json(views.json());
}

/** The FHIR body's schema: enough for a client to tell a Bundle from a resource; the docs have the mapping. */
export function fhirSchema(fhir: FhirInteraction): z.ZodType {
  const { resourceType, interaction } = fhir;
  const answered = fhir.interaction === 'operation' ? fhir.operation.answers : resourceType;
  const resource = z.looseObject({ resourceType: z.literal(answered), id: z.string().optional() });
  if (interaction !== 'search-type') return resource.meta({ description: `FHIR R4 ${answered}.` });
  return z
    .looseObject({
      resourceType: z.literal('Bundle'),
      type: z.literal('searchset'),
      link: z.array(z.object({ relation: z.enum(['self', 'next']), url: z.string().meta({ format: 'uri' }) })),
      entry: z.array(z.object({ resource, search: z.object({ mode: z.literal('match') }) })),
    })
    .meta({ description: `FHIR R4 searchset Bundle of ${resourceType}; \`next\` is absent on the last page.` });
}

/** A success that also answers in FHIR R4 (`_format=fhir`): the FHIR body under its own media type. */
export function withFhir(doc: ResponseDoc, fhir: FhirInteraction): ResponseDoc {
  return { ...doc, fhir, content: { ...doc.content, 'application/fhir+json': fhirSchema(fhir) } };
}
