import type { RequestHandler, Response } from 'express';
import { QueryParams } from './query-params';

/** What a reference response is rendered as: the API's own JSON, or HL7 FHIR R4 JSON (DESIGN.md §2). */
export type Representation = 'json' | 'fhir';

const FORMATS = ['json', 'fhir', 'application/json', 'application/fhir+json'] as const;

/** How long a client may reuse a reference answer; data changes only on import. */
const CACHE_CONTROL = 'private, max-age=300';

/**
 * For reference routes: reads the wanted representation (`_format`, else the
 * Accept header) before any work, so a bad `_format` is a 400 whatever else
 * the query holds.
 */
export function referenceFormat(): RequestHandler {
  return (req, res, next) => {
    const given = req.query._format === undefined ? undefined : new QueryParams(req).oneOf('_format', FORMATS, 'json');
    const wantsFhir = given ? given.includes('fhir') : /application\/fhir\+json/i.test(req.get('accept') ?? '');
    res.locals.representation = (wantsFhir ? 'fhir' : 'json') satisfies Representation;
    next();
  };
}

/**
 * Sends a reference answer in the representation referenceFormat() chose, as
 * cacheable: Express adds the ETag of the body and answers a matching
 * If-None-Match with 304. Only successes are marked cacheable.
 */
export function sendReference(res: Response, views: { json: () => unknown; fhir: () => unknown }): void {
  res.setHeader('Cache-Control', CACHE_CONTROL);
  res.vary('Accept');
  res.vary('Authorization');
  if (res.locals.representation === 'fhir') {
    res.type('application/fhir+json').send(JSON.stringify(views.fhir()));
  } else {
    res.json(views.json());
  }
}
