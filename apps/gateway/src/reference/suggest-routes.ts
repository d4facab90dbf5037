import { route, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { suggest } from './reference-operations';
import { orNull, termsOf } from './reference-params';
import { sendReferenceJson } from './reference-response';

/** GET /api/v1/suggest: type-ahead across the vocabularies (docs/SEARCH.md, "Type-ahead"). */
export function suggestRoutes(upstreams: Upstreams): Route[] {
  return [
    route(suggest, async ({ query }, { res, upstream }) => {
      const request = { text: query.q, types: termsOf(query.types), limit: query.limit };
      const found = await upstreams.catalogue.call((client) => client.suggest, request, upstream);
      const suggestions = found.suggestions.map(({ type, id, display, matched }) => ({ type, id, display, matched: orNull(matched) }));
      sendReferenceJson(res, { suggestions });
    }),
  ];
}
