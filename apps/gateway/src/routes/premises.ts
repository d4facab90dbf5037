import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import type { catalogueV1 } from '@libs/contracts';
import { requireKey } from '../auth/authenticate';
import { searchsetBundle } from '../fhir/bundle';
import { location } from '../fhir/location';
import { QueryParams } from '../http/query-params';
import { referenceFormat, sendReference } from '../http/reference-response';
import type { Upstreams } from '../upstreams/upstreams';
import { commaList, orNull } from './reference-params';

/** Basic: who and where, roughly; r=true adds the full address, contact, hours, position and services. */
function premise(p: catalogueV1.Premise, detailed: boolean) {
  const address = p.address;
  const basic = {
    id: p.id,
    code: p.code,
    name: p.name,
    type: p.type,
    city: address?.city ?? null,
    country: address?.country ?? null,
    sampleData: p.sampleData,
  };
  if (!detailed) return basic;
  return {
    ...basic,
    address: address
      ? {
          line1: address.line1,
          line2: orNull(address.line2),
          city: address.city,
          region: orNull(address.region),
          postalCode: orNull(address.postalCode),
          country: address.country,
        }
      : null,
    phone: orNull(p.phone),
    openingHours: orNull(p.openingHours),
    location: p.latitude !== undefined && p.longitude !== undefined ? { latitude: p.latitude, longitude: p.longitude } : null,
    services: p.services,
  };
}

export function premiseRoutes(upstreams: Upstreams, sequelize: Sequelize): Router {
  const router = Router();
  router.get('/api/v1/premises', requireKey(sequelize, 'reference:read'), referenceFormat(), async (req, res) => {
    const query = new QueryParams(req);
    const detailed = query.boolean('r', false);
    const request: catalogueV1.ListPremisesRequest = { terms: commaList(query, 'n'), cursor: query.cursor() ?? '' };
    const page = await upstreams.catalogue.call((client) => client.listPremises, request, res);
    sendReference(res, {
      json: () => ({
        premises: page.premises.map((p) => premise(p, detailed)),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      }),
      fhir: () => searchsetBundle(req, page.premises.map(location), page.nextCursor),
    });
  });
  return router;
}
