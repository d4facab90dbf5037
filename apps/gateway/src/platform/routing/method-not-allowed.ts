import type { RequestHandler } from 'express';
import { HttpProblem } from '@libs/http-problems';

/** Each path's declared methods, as an Allow header lists them: GET brings HEAD, as Express answers both. */
export function methodsByPath(declared: { path: string; method: string }[]): Map<string, string[]> {
  const byPath = new Map<string, Set<string>>();
  for (const { path, method } of declared) {
    const methods = byPath.get(path) ?? new Set<string>();
    methods.add(method.toUpperCase());
    if (method === 'get') methods.add('HEAD');
    byPath.set(path, methods);
  }
  return new Map([...byPath].map(([path, methods]) => [path, [...methods, 'OPTIONS']]));
}

/**
 * A method the path does not declare: 405 with `Allow` (RFC 9110 §15.5.6),
 * not a 404, so a client sees that the path exists. OPTIONS without a CORS
 * preflight (answered earlier, platform/http/cors.ts) just lists the methods.
 */
export function methodNotAllowed(methods: string[]): RequestHandler {
  const allow = methods.join(', ');
  return (req, res) => {
    if (req.method === 'OPTIONS') {
      res.set('Allow', allow).status(204).end();
      return;
    }
    throw new HttpProblem(405, `${req.method} is not allowed here; this path allows ${allow}`, { headers: { Allow: allow } });
  };
}
