import type { Express } from 'express';

export interface RouteEntry {
  method: string;
  path: string;
}

// Express keeps no public list of its routes; these are the fields of its
// router layers (router 2.x) that the walk needs.
interface Layer {
  slash?: boolean;
  rawPath?: unknown;
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

function walk(stack: Layer[], into: RouteEntry[]): void {
  for (const layer of stack) {
    if (layer.route) {
      for (const method of Object.keys(layer.route.methods)) into.push({ method: method.toUpperCase(), path: layer.route.path });
    } else if (layer.handle?.stack) {
      const routes: RouteEntry[] = [];
      walk(layer.handle.stack, routes);
      // Routers are mounted at / with full paths in their routes; a router elsewhere would need its prefix here.
      if (routes.length > 0 && !layer.slash) throw new Error(`a router with routes is mounted at ${String(layer.rawPath)}: mount it at /`);
      into.push(...routes);
    }
  }
}

/** Every method and path the app routes, in registration order: what the 401 walk visits. */
export function listRoutes(app: Express): RouteEntry[] {
  const routes: RouteEntry[] = [];
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, routes);
  return routes;
}
