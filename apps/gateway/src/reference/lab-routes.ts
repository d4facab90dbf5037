import type { catalogueV1 } from '@libs/contracts';
import { HttpProblem } from '@libs/http-problems';
import { route, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { searchsetBundle } from './fhir/bundle';
import { observationDefinition } from './fhir/observation-definition';
import { searchLabTests } from './reference-operations';
import { termsOf } from './reference-params';
import { representationOf, sendReference } from './reference-response';

/** Basic fields always; description, methodology, duration and testResults with r=true. */
export function labTest(test: catalogueV1.LabTest, detailed: boolean) {
  const basic = {
    id: test.id,
    name: test.name,
    normalRange: test.normalRange,
    units: test.units,
    categoryName: test.categoryName,
    subCategoryName: test.subCategoryName,
  };
  if (!detailed) return basic;
  return {
    ...basic,
    description: test.description,
    methodology: test.methodology,
    duration: test.duration,
    testResults: test.testResults,
  };
}

export function labRoutes(upstreams: Upstreams): Route[] {
  return [
    route(searchLabTests, async ({ query }, { req, res, upstream }) => {
      const request: catalogueV1.SearchLabTestsRequest = { terms: termsOf(query.n), cursor: query.cursor ?? '' };
      const page = await upstreams.catalogue.call((client) => client.searchLabTests, request, upstream);
      if (page.tests.length === 0) throw HttpProblem.notFound('no laboratory test matches the query');
      sendReference(res, representationOf(req, query._format), {
        json: () => ({
          tests: page.tests.map((test) => labTest(test, query.r)),
          ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        }),
        fhir: () => searchsetBundle(req, page.tests.map(observationDefinition), page.nextCursor),
      });
    }),
  ];
}
