import { toServiceJson } from '@libs/contracts';
import { route, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import * as op from './service-operations';
import { nextCursorOf, sendRecord } from './scheduling-response';

/** /api/v1/scheduling/services. */
export function serviceRoutes(upstreams: Upstreams): Route[] {
  const scheduling = upstreams.scheduling;
  return [
    route(op.listServices, async ({ query }, { res, upstream }) => {
      const page = await scheduling.call((c) => c.listServices, { limit: query.limit, cursor: query.cursor ?? '' }, upstream);
      res.json({ services: page.services.map(toServiceJson), ...nextCursorOf(page.nextCursor) });
    }),

    route(op.getService, async ({ path }, { res, upstream }) => {
      const { service } = await scheduling.call((c) => c.getService, { id: path.id }, upstream);
      sendRecord(res, service, toServiceJson);
    }),

    route(op.createService, async ({ headers, body }, { res, upstream }) => {
      const { service } = await scheduling.call((c) => c.createService, { input: body, idempotencyKey: headers['Idempotency-Key'] ?? '' }, upstream);
      res.location(`${op.createService.path}/${service?.id}`);
      sendRecord(res, service, toServiceJson, 201);
    }),

    route(op.updateService, async ({ path, body, expectedVersion }, { res, upstream }) => {
      const { service } = await scheduling.call((c) => c.updateService, { ...body, id: path.id, expectedVersion }, upstream);
      sendRecord(res, service, toServiceJson);
    }),
  ];
}
