import type { RequestHandler } from 'express';
import { z } from 'zod';

/** An origin as browsers send it: scheme, host and optional port, nothing more (RFC 6454). */
const ORIGIN = /^https?:\/\/[a-z0-9.-]+(?::\d{1,5})?$/i;

/**
 * CORS_ALLOWED_ORIGINS: a comma-separated list of origins whose pages may
 * call the API from a browser; empty (the default) allows none.
 */
export const corsOriginsField = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
  )
  .refine((origins) => origins.every((origin) => ORIGIN.test(origin)), {
    message: 'must be a comma-separated list of origins such as https://app.example.org (scheme, host, optional port; no path)',
  });

/** Methods and request headers a cross-origin page may use: what the operations declare. */
const ALLOW_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
const ALLOW_HEADERS = 'Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key, X-Request-Id, Traceparent, Tracestate';
/** Response headers a page's script may read besides the CORS-safelisted ones. */
const EXPOSE_HEADERS = 'ETag, X-Request-Id, X-Client-Request-Id, RateLimit, RateLimit-Policy, Retry-After, Location, Idempotent-Replayed, Allow, WWW-Authenticate';
/** How long a browser may reuse a preflight's answer (Chromium caps it at 2 h). */
const PREFLIGHT_MAX_AGE_SECONDS = 7_200;

/**
 * CORS for the configured origins. Keys travel in the Authorization header,
 * never in cookies, so there is no credentials mode: no
 * Access-Control-Allow-Credentials. A request from another origin gets no CORS
 * headers at all, and the browser keeps the answer from the page. A preflight
 * from an allowed origin is answered here (204); the OPTIONS of anyone else
 * goes on to the routes (405 or a plain Allow list).
 */
export function cors(allowedOrigins: string[]): RequestHandler {
  const allowed = new Set(allowedOrigins.map((origin) => origin.toLowerCase()));
  return (req, res, next) => {
    // Caches must keep answers to different origins apart, whether or not this one is allowed.
    if (allowed.size > 0) res.vary('Origin');
    const origin = req.get('origin');
    if (origin === undefined || !allowed.has(origin.toLowerCase())) {
      next();
      return;
    }
    res.set('Access-Control-Allow-Origin', origin);
    if (req.method === 'OPTIONS' && req.get('access-control-request-method') !== undefined) {
      res
        .set({
          'Access-Control-Allow-Methods': ALLOW_METHODS,
          'Access-Control-Allow-Headers': ALLOW_HEADERS,
          'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_SECONDS),
        })
        .status(204)
        .end();
      return;
    }
    res.set('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    next();
  };
}
