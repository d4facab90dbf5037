import type { catalogueV1 } from '@libs/contracts';
import { route, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { searchsetBundle } from './fhir/bundle';
import { conditionValueSet } from './fhir/value-set';
import { searchConditions } from './reference-operations';
import { orNull } from './reference-params';
import { representationOf, sendReference } from './reference-response';

/** With r=true: the catalogue's drugs for the condition, and every indication (also of drugs the catalogue lacks). */
export function condition(c: catalogueV1.Condition, withRelated: boolean) {
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

export function conditionRoutes(upstreams: Upstreams): Route[] {
  return [
    route(searchConditions, async ({ query }, { req, res, upstream }) => {
      const request: catalogueV1.ListConditionsRequest = { name: query.q ?? '', includeIndications: query.r, cursor: query.cursor ?? '' };
      const page = await upstreams.catalogue.call((client) => client.listConditions, request, upstream);
      sendReference(res, representationOf(req, query._format), {
        json: () => ({
          conditions: page.conditions.map((c) => condition(c, query.r)),
          ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        }),
        fhir: () => searchsetBundle(req, page.conditions.length ? [conditionValueSet(page.conditions)] : [], page.nextCursor),
      });
    }),
  ];
}
