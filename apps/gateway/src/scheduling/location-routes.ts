import { toLocationJson } from '@libs/contracts';
import { route, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import * as op from './location-operations';
import { nextCursorOf, sendRecord } from './scheduling-response';

/** /api/v1/scheduling/locations. */
export function locationRoutes(upstreams: Upstreams): Route[] {
  const scheduling = upstreams.scheduling;
  return [
    route(op.listLocations, async ({ query }, { res, upstream }) => {
      const page = await scheduling.call((c) => c.listLocations, { limit: query.limit, cursor: query.cursor ?? '' }, upstream);
      res.json({ locations: page.locations.map(toLocationJson), ...nextCursorOf(page.nextCursor) });
    }),

    route(op.getLocation, async ({ path }, { res, upstream }) => {
      const { location } = await scheduling.call((c) => c.getLocation, { premiseId: path.premiseId }, upstream);
      sendRecord(res, location, toLocationJson);
    }),

    route(op.putLocation, async ({ path, body, expectedVersion }, { res, upstream }) => {
      const request = { premiseId: path.premiseId, timeZone: body.timeZone, expectedVersion };
      const { location, created } = await scheduling.call((c) => c.putLocation, request, upstream);
      if (created) res.location(op.putLocation.path.replace('{premiseId}', path.premiseId));
      sendRecord(res, location, toLocationJson, created ? 201 : 200);
    }),
  ];
}
