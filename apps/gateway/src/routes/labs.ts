import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import type { catalogueV1 } from '@libs/contracts';
import { HttpProblem } from '@libs/http-problems';
import { requireKey } from '../auth/authenticate';
import { observationDefinition } from '../fhir/observation-definition';
import { searchsetBundle } from '../fhir/bundle';
import { QueryParams } from '../http/query-params';
import { referenceFormat, sendReference } from '../http/reference-response';
import type { Upstreams } from '../upstreams/upstreams';
import { commaList } from './reference-params';

/** SPEC.md §2: basic fields always; description, methodology, duration and testResults with r=true. */
function labTest(test: catalogueV1.LabTest, detailed: boolean) {
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

export function labRoutes(upstreams: Upstreams, sequelize: Sequelize): Router {
  const router = Router();
  router.get('/api/v1/labs', requireKey(sequelize, 'reference:read'), referenceFormat(), async (req, res) => {
    const query = new QueryParams(req);
    const request: catalogueV1.SearchLabTestsRequest = { terms: commaList(query, 'n'), cursor: query.cursor() ?? '' };
    const detailed = query.boolean('r', false);
    const page = await upstreams.catalogue.call((client) => client.searchLabTests, request, res);
    if (page.tests.length === 0) throw HttpProblem.notFound('no laboratory test matches the query');
    sendReference(res, {
      json: () => ({
        tests: page.tests.map((test) => labTest(test, detailed)),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      }),
      fhir: () => searchsetBundle(req, page.tests.map(observationDefinition), page.nextCursor),
    });
  });
  return router;
}
