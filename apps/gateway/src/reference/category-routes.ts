import type { catalogueV1 } from '@libs/contracts';
import { route, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { searchsetBundle } from './fhir/bundle';
import { categoryValueSet } from './fhir/value-set';
import { searchDrugCategories } from './reference-operations';
import { orNull, termsOf } from './reference-params';
import { representationOf, sendReference } from './reference-response';

/** An ATC group; with r=true, the drugs of the catalogue classified under it. Text arrives without HTML. */
export function category(c: catalogueV1.DrugCategory, withDrugs: boolean) {
  const basic = { code: c.code, name: c.name, level: c.level, parentCode: orNull(c.parentCode) };
  return withDrugs ? { ...basic, drugs: c.drugs.map((d) => ({ id: d.id, name: d.name, drugbankId: orNull(d.drugbankId) })) } : basic;
}

export function categoryRoutes(upstreams: Upstreams): Route[] {
  return [
    route(searchDrugCategories, async ({ query }, { req, res, upstream }) => {
      const request: catalogueV1.ListDrugCategoriesRequest = { terms: termsOf(query.c), includeDrugs: query.r, cursor: query.cursor ?? '' };
      const page = await upstreams.catalogue.call((client) => client.listDrugCategories, request, upstream);
      sendReference(res, representationOf(req, query._format), {
        json: () => ({
          categories: page.categories.map((c) => category(c, query.r)),
          ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        }),
        fhir: () => searchsetBundle(req, page.categories.length ? [categoryValueSet(page.categories)] : [], page.nextCursor),
      });
    }),
  ];
}
