import type { Express } from 'express';

export interface RouteEntry {
  method: string;
  /** The path in OpenAPI form: `/api/v1/transactions/{id}`. */
  path: string;
}

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** Every method and path the app answers, read from Express's router stack (mounted routers included). */
export function listRoutes(app: Express): RouteEntry[] {
  const routes: RouteEntry[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        // A route may answer several paths (e.g. /dosages and /api/v1/dosages).
        for (const path of ([] as string[]).concat(layer.route.path)) {
          // `_all`: the 405 answer a declared path gives other methods (routing/method-not-allowed.ts), no operation.
          for (const method of Object.keys(layer.route.methods).filter((name) => name !== '_all')) {
            routes.push({ method, path: path.replace(/:(\w+)/g, '{$1}') });
          }
        }
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return routes;
}
