import type { Request, Response } from 'express';
import type { OperationSpec } from '../routing/operation';
import type { ProblemFormat } from '@libs/http-problems';

/** The `_format` values that ask for FHIR; any other value (`fhirx`) is a bad parameter, answered as problem+json. */
export const FHIR_FORMATS = ['fhir', 'application/fhir+json'] as const;

/** `_format=fhir` (or `application/fhir+json`), else `Accept: application/fhir+json` (docs/REFERENCE.md, "FHIR"). */
export function asksForFhir(req: Request, format: unknown = req.query._format): boolean {
  if (typeof format === 'string' && format !== '') return (FHIR_FORMATS as readonly string[]).includes(format);
  return /application\/fhir\+json/i.test(req.get('accept') ?? '');
}

/** An operation that answers FHIR (on request, or always): its errors may be OperationOutcomes. */
export const servesFhir = (spec: OperationSpec): boolean => 'application/fhir+json' in (spec.responses['200']?.content ?? {});

/** An operation that answers FHIR alone (the terminology operations): its errors are OperationOutcomes whatever was asked. */
export const servesOnlyFhir = (spec: OperationSpec): boolean => servesFhir(spec) && !('application/json' in (spec.responses['200']?.content ?? {}));

/**
 * Marks a request to an operation that serves FHIR and asked for it: its errors are then OperationOutcomes
 * (libs/http-problems), the key check's included; every other error stays problem+json. Called by each such
 * operation first (platform/routing/mount.ts), so it is matched as the operation is, by method and whole path:
 * `GET /api/v1/appointments` serves FHIR, `POST` to it and `…/appointments/{id}/ics` do not.
 */
export function markFhirErrors(req: Request, res: Response, onlyFhir = false): void {
  if (onlyFhir || asksForFhir(req)) res.locals.problemFormat = 'fhir' satisfies ProblemFormat;
}

// A host as a client may name it: a name or IPv4 address, or a bracketed IPv6 one, and a port.
const PLAIN_HOST = /^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * The gateway's address as its clients know it, without a trailing slash:
 * PUBLIC_BASE_URL when configured, else the request's own origin (its Host,
 * or X-Forwarded-Proto and -Host when TRUST_PROXY trusts the proxy). A Host
 * that is no plain host name is not echoed into links: they stay relative.
 */
export function publicBaseOf(req: Request): string {
  const configured = req.app.locals.publicBaseUrl as string | undefined;
  if (configured) return configured;
  const host = req.host;
  return host && PLAIN_HOST.test(host) ? `${req.protocol}://${host}` : '';
}

/** The request's own URL under the public base, with the query changed by `edit`. */
export function publicUrlOf(req: Request, edit: (query: URLSearchParams) => void = () => undefined): string {
  const url = new URL(req.originalUrl, 'http://gateway.invalid');
  edit(url.searchParams);
  return `${publicBaseOf(req)}${url.pathname}${url.search}`;
}
