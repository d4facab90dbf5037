import type { RequestHandler } from 'express';

/**
 * On every response: the browser takes the Content-Type we send and never
 * guesses another (a JSON answer echoing client input must not run as HTML).
 */
export function noSniff(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  };
}

/**
 * On an HTML page (and its assets): a Content-Security-Policy of the page's
 * own directives plus `frame-ancestors 'none'`, and X-Frame-Options for
 * browsers that predate it, so that no other site can frame the page and trick
 * clicks out of a user.
 */
export function htmlPageHeaders(directives: string[]): RequestHandler {
  const policy = [...directives, "frame-ancestors 'none'"].join('; ');
  return (_req, res, next) => {
    res.setHeader('Content-Security-Policy', policy);
    res.setHeader('X-Frame-Options', 'DENY');
    next();
  };
}
