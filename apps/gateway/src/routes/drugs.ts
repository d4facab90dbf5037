import { Router, type Request } from 'express';
import type { Sequelize } from 'sequelize';
import type { catalogueV1 } from '@libs/contracts';
import { HttpProblem } from '@libs/http-problems';
import { requireKey } from '../auth/authenticate';
import { searchsetBundle } from '../fhir/bundle';
import { foodInteraction } from '../fhir/food-interaction';
import { drugKnowledge } from '../fhir/medication-knowledge';
import { QueryParams } from '../http/query-params';
import { referenceFormat, sendReference } from '../http/reference-response';
import type { Upstreams } from '../upstreams/upstreams';
import { dosageJson } from './dosage-json';
import { orNull } from './reference-params';

/** Parameters that would set the page size, which SPEC.md §4.5 fixes at 50. */
const PAGE_SIZE_PARAMETERS = ['batch_count', 'b'];

function refusePageSize(req: Request): void {
  const given = Object.keys(req.query).find((name) => PAGE_SIZE_PARAMETERS.includes(name.toLowerCase()));
  if (given !== undefined) {
    throw HttpProblem.invalidParameter(given, 'the drug list has a fixed page size of 50 and it cannot be changed');
  }
}

const drug = (d: catalogueV1.Drug) => ({
  id: d.id,
  name: d.name,
  drugbankId: orNull(d.drugbankId),
  atcCodes: d.atcCodes,
  description: d.description,
});

const category = (c: catalogueV1.DrugCategory) => ({
  code: c.code,
  name: c.name,
  level: c.level,
  parentCode: orNull(c.parentCode),
});

export function drugRoutes(upstreams: Upstreams, sequelize: Sequelize): Router {
  const router = Router();
  const guard = [requireKey(sequelize, 'reference:read'), referenceFormat()];

  router.get('/api/v1/drugs', ...guard, async (req, res) => {
    refusePageSize(req);
    const request: catalogueV1.ListDrugsRequest = { cursor: new QueryParams(req).cursor() ?? '' };
    const page = await upstreams.catalogue.call((client) => client.listDrugs, request, res);
    sendReference(res, {
      json: () => ({ drugs: page.drugs.map(drug), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) }),
      fhir: () => searchsetBundle(req, page.drugs.map((d) => drugKnowledge(d)), page.nextCursor),
    });
  });

  router.get('/api/v1/drugs/:id', ...guard, async (req, res) => {
    const found = await upstreams.catalogue.call((client) => client.getDrug, { id: String(req.params.id) }, res);
    if (!found.drug) throw HttpProblem.notFound('no drug has that id');
    const d = found.drug;
    sendReference(res, {
      json: () => ({
        ...drug(d),
        dosages: found.dosages.map(dosageJson),
        categories: found.categories.map(category),
      }),
      fhir: () => drugKnowledge(d, found.categories),
    });
  });

  router.get('/api/v1/drugs/:id/food-interactions', ...guard, async (req, res) => {
    const request = { drugId: String(req.params.id) };
    const found = await upstreams.catalogue.call((client) => client.listFoodInteractions, request, res);
    const subject = found.drug ?? { id: request.drugId, name: '', drugbankId: '' };
    sendReference(res, {
      json: () => ({
        drug: { id: subject.id, name: subject.name, drugbankId: orNull(subject.drugbankId) },
        interactions: found.interactions.map((i) => ({
          id: i.id,
          food: orNull(i.food),
          severity: orNull(i.severity),
          effect: orNull(i.effect),
          advice: i.advice,
        })),
      }),
      fhir: () => searchsetBundle(req, found.interactions.map((i) => foodInteraction(subject, i)), undefined),
    });
  });
  return router;
}
