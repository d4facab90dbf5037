import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import type { catalogueV1 } from '@libs/contracts';
import { requireKey } from '../auth/authenticate';
import { searchsetBundle } from '../fhir/bundle';
import { conditionValueSet } from '../fhir/value-set';
import { QueryParams } from '../http/query-params';
import { referenceFormat, sendReference } from '../http/reference-response';
import type { Upstreams } from '../upstreams/upstreams';
import { orNull } from './reference-params';

/** With r=true: the catalogue's drugs for the condition, and every indication (also of drugs the catalogue lacks). */
function condition(c: catalogueV1.Condition, withRelated: boolean) {
  const basic = { id: c.id, name: c.name, doid: orNull(c.doid), description: c.description };
  if (!withRelated) return basic;
  const drugs = new Map(c.indications.filter((i) => i.drugId).map((i) => [i.drugId, { id: i.drugId, name: i.drugName }]));
  return {
    ...basic,
    drugs: [...drugs.values()],
    indications: c.indications.map((i) => ({
      drugName: i.drugName,
      drugId: orNull(i.drugId),
      drugbankId: orNull(i.drugbankId),
      type: i.type,
    })),
  };
}

export function conditionRoutes(upstreams: Upstreams, sequelize: Sequelize): Router {
  const router = Router();
  router.get('/api/v1/conditions', requireKey(sequelize, 'reference:read'), referenceFormat(), async (req, res) => {
    const query = new QueryParams(req);
    const withRelated = query.boolean('r', false);
    const request: catalogueV1.ListConditionsRequest = {
      name: query.string('q') ?? '',
      includeIndications: withRelated,
      cursor: query.cursor() ?? '',
    };
    const page = await upstreams.catalogue.call((client) => client.listConditions, request, res);
    sendReference(res, {
      json: () => ({
        conditions: page.conditions.map((c) => condition(c, withRelated)),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      }),
      fhir: () => searchsetBundle(req, page.conditions.length ? [conditionValueSet(page.conditions)] : [], page.nextCursor),
    });
  });
  return router;
}
