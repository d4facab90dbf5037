import type { WebhookSpec } from '../openapi/webhook-spec';
import type { OperationSpec, Route } from './operation';

/**
 * One area of the API (identity, finance, …): the operations it declares, in the order the OpenAPI document lists
 * them, and the routes that answer them, built from what the app passes in (`D`: what the area needs of it).
 */
export interface Area<D> {
  readonly operations: readonly OperationSpec[];
  routes(deps: D): Route[];
  /** The webhooks it sends (the document's `webhooks` section), if any. */
  readonly webhooks?: readonly WebhookSpec[];
}

/**
 * A module of declarations (`*-operations.ts`: every export is an operation, so the type check refuses anything
 * else), or several spread into one object, and the routes that answer them. They are listed in the order of
 * their names, as a module namespace lists its exports.
 */
export const declaredIn = <D>(declarations: Readonly<Record<string, OperationSpec>>, routes: (deps: D) => Route[]): Area<D> => ({
  operations: Object.keys(declarations)
    .sort()
    .map((name) => declarations[name]),
  routes,
});

/** One area made of several parts, listed and routed in this order. */
export const areaOf = <D>(...parts: Area<D>[]): Area<D> => ({
  operations: parts.flatMap((part) => part.operations),
  routes: (deps) => parts.flatMap((part) => part.routes(deps)),
});

/** Every operation of the areas: what the OpenAPI document and the FHIR CapabilityStatement describe. */
export const operationsOf = (areas: readonly { operations: readonly OperationSpec[] }[]): OperationSpec[] => areas.flatMap((area) => area.operations);

/** What the OpenAPI document describes: every operation, and every webhook the API sends. */
export interface DescribedApi {
  operations: OperationSpec[];
  webhooks: WebhookSpec[];
}

export const describedApi = (areas: readonly Pick<Area<never>, 'operations' | 'webhooks'>[]): DescribedApi => ({
  operations: operationsOf(areas),
  webhooks: areas.flatMap((area) => area.webhooks ?? []),
});

/**
 * The routes of every area. Each area answers exactly the operations it declares, once each: a declaration left
 * without a handler, or a handler of an operation the area does not declare, stops the app from being built.
 */
export function routesOf<D>(areas: readonly Area<D>[], deps: D): Route[] {
  return areas.flatMap((area) => {
    const routes = area.routes(deps);
    const routed = routes.map((route) => route.spec);
    const unrouted = area.operations.filter((spec) => !routed.includes(spec));
    const strays = routed.filter((spec, index) => !area.operations.includes(spec) || routed.indexOf(spec) !== index);
    if (unrouted.length > 0 || strays.length > 0) {
      const ids = (specs: readonly OperationSpec[]) => specs.map((spec) => spec.operationId).join(', ') || 'none';
      throw new Error(`an area must route each operation it declares once: unrouted ${ids(unrouted)}; undeclared or routed twice ${ids(strays)}`);
    }
    return routes;
  });
}
