import { HttpProblem } from '@libs/http-problems';
import { route, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { lookupCode } from './reference-operations';
import { sendReferenceJson } from './reference-response';

/** GET /api/v1/codes: a source's code to the catalogue's concepts (docs/REFERENCE.md, "Code lookup"). */
export function codeRoutes(upstreams: Upstreams): Route[] {
  return [
    route(lookupCode, async ({ query }, { res, upstream }) => {
      const found = await upstreams.catalogue.call((client) => client.lookupCode, { system: query.system, code: query.code }, upstream);
      if (found.concepts.length === 0) throw HttpProblem.notFound(`no concept has the ${query.system} code given`);
      sendReferenceJson(res, { code: found.code, concepts: found.concepts.map(({ type, id, name }) => ({ type, id, name })) });
    }),
  ];
}
