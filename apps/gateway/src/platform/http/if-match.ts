import type { Request } from 'express';
import { HttpProblem } from '@libs/http-problems';

/** The ETag of a versioned record: its version number, as a strong tag. */
export const etagOf = (version: number): string => `"${version}"`;

const MAX_INT32 = 2 ** 31 - 1;

/**
 * The version a PATCH expects, from If-Match; 0 means "whatever the current
 * version is". If-Match is optional, as HTTP makes it: without it the last
 * write wins, so clients that only send the changed fields work; a client that
 * sends it cannot overwrite a change it has not seen (a stale tag is a 412).
 * A tag that can never match (weak or foreign) is a 412 too, as RFC 9110 says.
 */
export function expectedVersion(req: Request): number {
  const header = req.get('if-match');
  if (header === undefined || header.trim() === '*') return 0;
  const match = /^\s*"(\d{1,10})"\s*$/.exec(header);
  const version = match ? Number(match[1]) : NaN;
  if (!(version >= 1 && version <= MAX_INT32)) {
    throw new HttpProblem(412, 'If-Match does not match the current version: send the ETag of your last GET');
  }
  return version;
}
