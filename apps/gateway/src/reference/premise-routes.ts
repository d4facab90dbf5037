import type { catalogueV1 } from '@libs/contracts';
import { route, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { searchsetBundle } from './fhir/bundle';
import { location } from './fhir/location';
import { searchPremises } from './reference-operations';
import { orNull, termsOf } from './reference-params';
import { representationOf, sendReference } from './reference-response';

/** Basic: who and where, roughly; r=true adds the full address, contact, hours, position and services. */
export function premise(p: catalogueV1.Premise, detailed: boolean) {
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

export function premiseRoutes(upstreams: Upstreams): Route[] {
  return [
    route(searchPremises, async ({ query }, { req, res, upstream }) => {
      const request: catalogueV1.ListPremisesRequest = { terms: termsOf(query.n), cursor: query.cursor ?? '' };
      const page = await upstreams.catalogue.call((client) => client.listPremises, request, upstream);
      sendReference(res, representationOf(req, query._format), {
        json: () => ({
          premises: page.premises.map((p) => premise(p, query.r)),
          ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        }),
        fhir: () => searchsetBundle(req, page.premises.map(location), page.nextCursor),
      });
    }),
  ];
}
