import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import { referenceV1 } from '@libs/contracts';
import { HttpProblem } from '@libs/http-problems';
import { requireKey } from '../auth/authenticate';
import { searchsetBundle } from '../fhir/bundle';
import { diseaseValueSet } from '../fhir/value-set';
import { QueryParams } from '../http/query-params';
import { referenceFormat, sendReference } from '../http/reference-response';
import type { Upstreams } from '../upstreams/upstreams';

/** The field names of SPEC.md §2, exactly. */
function detailed(disease: referenceV1.Disease) {
  return {
    id: disease.id,
    Disease_Name: disease.diseaseName,
    Disease_ID: disease.diseaseId,
    Alternative_Disease_IDs: disease.alternativeDiseaseIds,
    Definition: disease.definition,
    Parent_IDs: disease.parentIds,
    Tree_Numbers: disease.treeNumbers,
    Parent_Tree_Numbers: disease.parentTreeNumbers,
    Synonyms: disease.synonyms,
    Slim_Mappings: disease.slimMappings,
  };
}

export function diseaseRoutes(upstreams: Upstreams, sequelize: Sequelize): Router {
  const router = Router();
  router.get('/api/v1/diseases', requireKey(sequelize, 'reference:read'), referenceFormat(), async (req, res) => {
    const query = new QueryParams(req);
    const request: referenceV1.SearchDiseasesRequest = {
      name: query.string('n') ?? '',
      exact: query.boolean('e', false),
      sortByName: query.boolean('s', false),
      order:
        query.oneOf('sOrder', ['asc', 'desc'], 'asc') === 'desc'
          ? referenceV1.SortOrder.SORT_ORDER_DESC
          : referenceV1.SortOrder.SORT_ORDER_ASC,
      batchSize: query.integer('b', 25, 1, 250),
      cursor: query.cursor() ?? '',
    };
    const withDetail = query.boolean('r', true);
    const page = await upstreams.reference.call((client) => client.searchDiseases, request, res);
    if (page.diseases.length === 0) throw HttpProblem.notFound('no disease matches the query');
    sendReference(res, {
      json: () => ({
        diseases: page.diseases.map((d) => (withDetail ? detailed(d) : { Disease_Name: d.diseaseName })),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      }),
      fhir: () => searchsetBundle(req, [diseaseValueSet(page.diseases)], page.nextCursor),
    });
  });
  return router;
}
