import type { catalogueV1 } from '@libs/contracts';
import { HttpProblem } from '@libs/http-problems';
import { route, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { searchsetBundle } from './fhir/bundle';
import { dosageKnowledge } from './fhir/medication-knowledge';
import { dosageJson } from './dosage-json';
import { getDosage, searchDosages } from './reference-operations';
import { representationOf, sendReference } from './reference-response';

/** Dosages, answered with and without the /api/v1 prefix (the declarations name both paths). */
export function dosageRoutes(upstreams: Upstreams): Route[] {
  return [
    route(searchDosages, async ({ query }, { req, res, upstream }) => {
      const request: catalogueV1.SearchDosagesRequest = { drugName: query.n, batchSize: query.b, cursor: query.cursor ?? '' };
      const page = await upstreams.catalogue.call((client) => client.searchDosages, request, upstream);
      if (page.groups.length === 0) throw HttpProblem.notFound('no dosage matches the drug name');
      sendReference(res, representationOf(req, query._format), {
        json: () => ({
          dosages: page.groups.map((group) => ({ drugName: group.drugName, dosages: group.dosages.map(dosageJson) })),
          ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        }),
        fhir: () =>
          searchsetBundle(
            req,
            page.groups.flatMap((g) => g.dosages.map((d) => dosageKnowledge({ id: g.drugId, name: g.drugName }, d))),
            page.nextCursor,
          ),
      });
    }),

    route(getDosage, async ({ path, query }, { req, res, upstream }) => {
      const found = await upstreams.catalogue.call((client) => client.getDosage, { id: path.id }, upstream);
      if (!found.dosage) throw HttpProblem.notFound('no dosage has that id');
      const { dosage: d, drugId, drugName } = found;
      sendReference(res, representationOf(req, query._format), {
        json: () => ({ drugName, dosage: dosageJson(d) }),
        fhir: () => dosageKnowledge({ id: drugId, name: drugName }, d),
      });
    }),
  ];
}
