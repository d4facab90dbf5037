import type { Request } from 'express';
import { REFERENCE_LIMITS, type catalogueV1 } from '@libs/contracts';
import { HttpProblem } from '@libs/http-problems';
import { route, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { dosageJson } from './dosage-json';
import { searchsetBundle } from './fhir/bundle';
import { foodInteraction } from './fhir/food-interaction';
import { drugKnowledge } from './fhir/medication-knowledge';
import { foodInteractionJson, interactionDrugJson } from './food-interaction-json';
import { getDrug, getDrugFoodInteractions, listDrugs } from './reference-operations';
import { orNull } from './reference-params';
import { representationOf, sendReference } from './reference-response';

/** Parameters that would set the page size, which the drug list fixes (REFERENCE_LIMITS.drugPage; docs/REFERENCE.md). */
const PAGE_SIZE_PARAMETERS = ['batch_count', 'b'];

function refusePageSize(req: Request): void {
  const given = Object.keys(req.query).find((name) => PAGE_SIZE_PARAMETERS.includes(name.toLowerCase()));
  if (given !== undefined) {
    throw HttpProblem.invalidParameter(given, `the drug list has a fixed page size of ${REFERENCE_LIMITS.drugPage} and it cannot be changed`);
  }
}

export const drug = (d: catalogueV1.Drug) => ({
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

export function drugRoutes(upstreams: Upstreams): Route[] {
  const catalogue = upstreams.catalogue;
  return [
    route(listDrugs, async ({ query }, { req, res, upstream }) => {
      refusePageSize(req);
      const page = await catalogue.call((client) => client.listDrugs, { cursor: query.cursor ?? '', name: query.n ?? '' }, upstream);
      sendReference(res, representationOf(req, query._format), {
        json: () => ({ drugs: page.drugs.map(drug), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) }),
        fhir: () => searchsetBundle(req, page.drugs.map((d) => drugKnowledge(d)), page.nextCursor),
      });
    }),

    route(getDrug, async ({ path, query }, { req, res, upstream }) => {
      const found = await catalogue.call((client) => client.getDrug, { id: path.id }, upstream);
      if (!found.drug) throw HttpProblem.notFound('no drug has that id');
      const d = found.drug;
      sendReference(res, representationOf(req, query._format), {
        json: () => ({
          ...drug(d),
          dosages: found.dosages.map(dosageJson),
          categories: found.categories.map(category),
        }),
        fhir: () => drugKnowledge(d, found.categories),
      });
    }),

    route(getDrugFoodInteractions, async ({ path, query }, { req, res, upstream }) => {
      const request = { drugId: path.id };
      const found = await catalogue.call((client) => client.listFoodInteractions, request, upstream);
      const subject = found.drug ?? { id: request.drugId, name: '', drugbankId: '' };
      sendReference(res, representationOf(req, query._format), {
        json: () => ({ drug: interactionDrugJson(subject), interactions: found.interactions.map(foodInteractionJson) }),
        fhir: () => searchsetBundle(req, found.interactions.map((i) => foodInteraction(subject, i)), undefined),
      });
    }),
  ];
}
