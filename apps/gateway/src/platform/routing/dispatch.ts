import { Router, type RequestHandler } from 'express';

/** How many leading literal segments group the routes: `/api/v1/diseases`. */
const GROUP_DEPTH = 3;

/** The literal segments a path template starts with (at most GROUP_DEPTH), lower-cased as Express matches paths. */
export function groupOf(template: string): string {
  const literals: string[] = [];
  for (const segment of template.split('/').slice(1, GROUP_DEPTH + 1)) {
    if (segment.includes(':') || segment.includes('{')) break;
    literals.push(segment.toLowerCase());
  }
  return `/${literals.join('/')}`;
}

/** A request path's prefixes of 1 to GROUP_DEPTH segments, longest first: the groups that may hold its route. */
function prefixesOf(path: string): string[] {
  const lower = path.toLowerCase();
  const prefixes: string[] = [];
  let end = 0;
  while (prefixes.length < GROUP_DEPTH && end !== -1) {
    end = lower.indexOf('/', end + 1);
    prefixes.unshift(end === -1 ? lower : lower.slice(0, end));
  }
  return prefixes;
}

export interface RouteEntry {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete' | 'all';
  /** An Express path (`/api/v1/drugs/:id`). */
  path: string;
  handler: RequestHandler;
}

/** Per segment of a path, 0 for a literal and 1 for a parameter. */
const shapeOf = (path: string) => path.split('/').slice(1).map((segment) => (segment.startsWith(':') ? 1 : 0));

/**
 * The order routes are tried in: methods before the catch-all (`all`), then by shape, so that where two paths differ
 * first, the literal segment comes before the parameter (`/transactions/payments` before `/transactions/:id`),
 * whatever the order they were declared in. Two paths a request can both match differ first in such a place, or
 * are the same path, which keeps its declared order.
 */
function triedFirst(a: RouteEntry, b: RouteEntry): number {
  if ((a.method === 'all') !== (b.method === 'all')) return a.method === 'all' ? 1 : -1;
  const [x, y] = [shapeOf(a.path), shapeOf(b.path)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/**
 * One Express router per group of routes sharing their leading literal
 * segments, chosen by a map lookup on the request's path: a request is matched
 * against its own group's few routes instead of every route in turn (Express
 * tries a router's routes one by one, and some forty of them were a visible
 * share of the gateway's CPU on a forwarded GET: the bench's `exact search`
 * with --profile shows it). Within a group, routes are tried literal
 * segment first (triedFirst); a path whose longer group has no match for it
 * goes on to its shorter ones, then past the routes. Express still matches each
 * route, so `req.route` names its template and parameters are parsed as before.
 */
export function routesByPrefix(routes: RouteEntry[]): RequestHandler {
  const groups = new Map<string, Router>();
  for (const { method, path, handler } of [...routes].sort(triedFirst)) {
    const key = groupOf(path);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = Router()));
    group[method](path, handler);
  }
  const dispatch: RequestHandler = (req, res, next) => {
    const candidates = prefixesOf(req.path).filter((prefix) => groups.has(prefix));
    const tryFrom = (index: number, error?: unknown): void => {
      if (error !== undefined && error !== null) return next(error);
      const group = index < candidates.length ? groups.get(candidates[index]) : undefined;
      if (!group) return next();
      group(req, res, (failure?: unknown) => tryFrom(index + 1, failure));
    };
    tryFrom(0);
  };
  // Shown as a router of routers, as Express shows a mounted one: listRoutes (http/list-routes.ts) walks it.
  return Object.assign(dispatch, { stack: [...groups.values()].map((group) => ({ handle: group })) });
}
