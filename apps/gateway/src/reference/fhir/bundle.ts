import type { Request } from 'express';
import { publicUrlOf } from '../../platform/http/fhir-request';

/** A FHIR R4 resource as JSON; the mappers in this folder build them. */
export interface FhirResource {
  resourceType: string;
  id?: string;
  [field: string]: unknown;
}

/**
 * The request's own URL, absolute (FHIR clients resolve links against their base, not the server's root),
 * with the cursor replaced.
 */
const pageUrl = (req: Request, cursor: string | undefined): string =>
  publicUrlOf(req, (query) => {
    query.delete('cursor');
    if (cursor) query.set('cursor', cursor);
  });

/**
 * A list as a searchset Bundle (docs/REFERENCE.md): absolute links; "next"
 * carries the cursor of the next page and is absent on the last page. Cursors
 * run forward only, so there is no "previous".
 */
export function searchsetBundle(req: Request, resources: FhirResource[], nextCursor: string | undefined): FhirResource {
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    link: [
      { relation: 'self', url: pageUrl(req, typeof req.query.cursor === 'string' ? req.query.cursor : undefined) },
      ...(nextCursor ? [{ relation: 'next', url: pageUrl(req, nextCursor) }] : []),
    ],
    // No fullUrl (optional in a searchset): the reference service's resources have no address to read them at,
    // and this one builder serves them as well as the Appointments and Schedules that do have one.
    entry: resources.map((resource) => ({ resource, search: { mode: 'match' } })),
  };
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A resource's human-readable text (Narrative), from plain text. */
export const narrative = (text: string) => ({
  status: 'generated',
  div: `<div xmlns="http://www.w3.org/1999/xhtml">${escapeXml(text)}</div>`,
});

/** Leaves out fields whose value is undefined, empty text or an empty list: FHIR forbids empty values. */
export function compact<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(fields).filter(([, v]) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0)),
  ) as Partial<T>;
}
