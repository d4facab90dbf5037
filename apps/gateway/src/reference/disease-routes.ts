import { referenceV1 } from '@libs/contracts';
import { HttpProblem } from '@libs/http-problems';
import { route, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { searchsetBundle } from './fhir/bundle';
import { diseaseValueSet } from './fhir/value-set';
import { searchDiseases } from './reference-operations';
import { representationOf, sendReference } from './reference-response';
import { diseaseJson } from './schemas';

export function diseaseRoutes(upstreams: Upstreams): Route[] {
  return [
    route(searchDiseases, async ({ query }, { req, res, upstream }) => {
      const representation = representationOf(req, query._format);
      const request: referenceV1.SearchDiseasesRequest = {
        name: query.n ?? '',
        exact: query.e,
        sortByName: query.s,
        order: query.sOrder === 'desc' ? referenceV1.SortOrder.SORT_ORDER_DESC : referenceV1.SortOrder.SORT_ORDER_ASC,
        batchSize: query.b,
        cursor: query.cursor ?? '',
        // The JSON answer without r shows names alone; the FHIR ValueSet codes each disease by its id and lists its
        // synonyms. The answer cache keys on the whole request, so the two forms are kept apart.
        namesOnly: !query.r && representation === 'json',
      };
      const page = await upstreams.reference.call((client) => client.searchDiseases, request, upstream);
      if (page.diseases.length === 0) throw HttpProblem.notFound('no disease matches the query');
      sendReference(res, representation, {
        json: () => ({
          diseases: page.diseases.map((d) => (query.r ? diseaseJson(d) : { Disease_Name: d.diseaseName })),
          ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        }),
        fhir: () => searchsetBundle(req, [diseaseValueSet(page.diseases)], page.nextCursor),
      });
    }),
  ];
}
