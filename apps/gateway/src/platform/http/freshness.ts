import type { Express, Request } from 'express';

/** The entity tags an If-None-Match lists, compared weakly (RFC 9110 §13.1.2): `W/"x"` matches `"x"`. */
const tagsOf = (header: string) => header.split(',').map((tag) => tag.trim().replace(/^W\//, ''));

/**
 * Whether the client's copy is current, as an origin server decides it
 * (RFC 9110 §13.2.1): If-None-Match against the ETag, else If-Modified-Since
 * against Last-Modified. Unlike Express's own check (the `fresh` package),
 * `Cache-Control: no-cache` on the request is not a reason to skip it: that
 * directive addresses caches (RFC 9111 §5.2.1.4), and the Fetch standard adds
 * it to every conditional request, so browsers and Node's fetch never got a 304.
 */
function isFresh(req: Request): boolean {
  const { method, res } = req;
  if (method !== 'GET' && method !== 'HEAD') return false;
  const status = res?.statusCode ?? 200;
  if (!((status >= 200 && status < 300) || status === 304)) return false;
  const noneMatch = req.get('if-none-match');
  if (noneMatch !== undefined) {
    const etag = res?.get('ETag');
    if (noneMatch.trim() === '*') return etag !== undefined;
    return etag !== undefined && tagsOf(noneMatch).includes(etag.replace(/^W\//, ''));
  }
  const modifiedSince = Date.parse(req.get('if-modified-since') ?? '');
  const lastModified = Date.parse(String(res?.get('Last-Modified') ?? ''));
  return Number.isFinite(modifiedSince) && Number.isFinite(lastModified) && lastModified <= modifiedSince;
}

/** Makes `req.fresh`, which `res.send` consults before answering 304, follow RFC 9110 for this app's requests. */
export function evaluatePreconditionsAsOrigin(app: Express): void {
  Object.defineProperty(app.request, 'fresh', {
    configurable: true,
    enumerable: true,
    get(this: Request) {
      return isFresh(this);
    },
  });
}
