import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import type { catalogueV1 } from '@libs/contracts';
import { requireKey } from '../auth/authenticate';
import { searchsetBundle } from '../fhir/bundle';
import { categoryValueSet } from '../fhir/value-set';
import { QueryParams } from '../http/query-params';
import { referenceFormat, sendReference } from '../http/reference-response';
import type { Upstreams } from '../upstreams/upstreams';
import { commaList, orNull } from './reference-params';

/** An ATC group; with r=true, the drugs of the catalogue classified under it. Text arrives without HTML. */
function category(c: catalogueV1.DrugCategory, withDrugs: boolean) {
  const basic = { code: c.code, name: c.name, level: c.level, parentCode: orNull(c.parentCode) };
  return withDrugs ? { ...basic, drugs: c.drugs.map((d) => ({ id: d.id, name: d.name, drugbankId: orNull(d.drugbankId) })) } : basic;
}

export function categoryRoutes(upstreams: Upstreams, sequelize: Sequelize): Router {
  const router = Router();
  router.get('/api/v1/categories', requireKey(sequelize, 'reference:read'), referenceFormat(), async (req, res) => {
    const query = new QueryParams(req);
    const withDrugs = query.boolean('r', false);
    const request: catalogueV1.ListDrugCategoriesRequest = {
      terms: commaList(query, 'c'),
      includeDrugs: withDrugs,
      cursor: query.cursor() ?? '',
    };
    const page = await upstreams.catalogue.call((client) => client.listDrugCategories, request, res);
    sendReference(res, {
      json: () => ({
        categories: page.categories.map((c) => category(c, withDrugs)),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      }),
      fhir: () => searchsetBundle(req, page.categories.length ? [categoryValueSet(page.categories)] : [], page.nextCursor),
    });
  });
  return router;
}
