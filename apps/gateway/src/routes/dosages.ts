import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import type { catalogueV1 } from '@libs/contracts';
import { HttpProblem } from '@libs/http-problems';
import { requireKey } from '../auth/authenticate';
import { searchsetBundle } from '../fhir/bundle';
import { dosageKnowledge } from '../fhir/medication-knowledge';
import { QueryParams } from '../http/query-params';
import { referenceFormat, sendReference } from '../http/reference-response';
import type { Upstreams } from '../upstreams/upstreams';
import { dosageJson } from './dosage-json';

/** SPEC.md §4.3–4.4 and §9: the same endpoints with and without the /api/v1 prefix. */
export function dosageRoutes(upstreams: Upstreams, sequelize: Sequelize): Router {
  const router = Router();
  const guard = [requireKey(sequelize, 'reference:read'), referenceFormat()];

  router.get(['/dosages', '/api/v1/dosages'], ...guard, async (req, res) => {
    const query = new QueryParams(req);
    // n is required; the reference service names it when it is missing or blank.
    const request: catalogueV1.SearchDosagesRequest = {
      drugName: query.string('n') ?? '',
      batchSize: query.integer('b', 250, 1, 500),
      cursor: query.cursor() ?? '',
    };
    const page = await upstreams.catalogue.call((client) => client.searchDosages, request, res);
    if (page.groups.length === 0) throw HttpProblem.notFound('no dosage matches the drug name');
    sendReference(res, {
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
  });

  router.get(['/dosages/:id', '/api/v1/dosages/:id'], ...guard, async (req, res) => {
    const found = await upstreams.catalogue.call((client) => client.getDosage, { id: String(req.params.id) }, res);
    if (!found.dosage) throw HttpProblem.notFound('no dosage has that id');
    const { dosage: d, drugId, drugName } = found;
    sendReference(res, {
      json: () => ({ drugName, dosage: dosageJson(d) }),
      fhir: () => dosageKnowledge({ id: drugId, name: drugName }, d),
    });
  });
  return router;
}
