import type { Request } from 'express';
import { HttpProblem } from '@libs/http-problems';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path parameter that must be a UUID; anything else is a 400 naming it, before any lookup. */
export function uuidParam(req: Request, name: string, what: string): string {
  const value = String(req.params[name]);
  if (!UUID.test(value)) throw HttpProblem.invalidParameter(name, `must be ${what} (a UUID)`);
  return value;
}
