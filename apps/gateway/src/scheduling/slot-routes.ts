import { representationOf, sendRepresentation } from '../platform/http/fhir-response';
import { route, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { searchsetBundle } from '../reference/fhir/bundle';
import { slot } from './fhir/slot';
import { nextCursorOf } from './scheduling-response';
import { toSlotJson } from './schemas';
import * as op from './slot-operations';

/** GET /api/v1/scheduling/slots. */
export function slotRoutes(upstreams: Upstreams): Route[] {
  return [
    route(op.searchSlots, async ({ query }, { req, res, upstream }) => {
      const request = {
        serviceId: query.service,
        locationId: query.location ?? '',
        resourceId: query.resource ?? '',
        from: query.from,
        to: query.to,
        timeZone: query.timeZone ?? '',
        cursor: query.cursor ?? '',
        limit: query.limit,
        explain: query.explain,
      };
      const found = await upstreams.scheduling.call((c) => c.searchSlots, request, upstream);
      sendRepresentation(res, representationOf(req, query._format), {
        json: () => ({
          slots: found.slots.map(toSlotJson),
          ...nextCursorOf(found.nextCursor),
          ...(found.nextAvailable ? { nextAvailable: toSlotJson(found.nextAvailable) } : {}),
          ...(query.explain ? { unavailable: found.unavailable.map((u) => ({ resourceId: u.resourceId, start: u.start, end: u.end, reasons: u.reasons })) } : {}),
        }),
        fhir: () => searchsetBundle(req, found.slots.map(slot), found.nextCursor),
      });
    }),
  ];
}
