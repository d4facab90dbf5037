import { route, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import * as op from './event-type-operations';
import { toEventTypeJson } from './schemas';

/** /api/v1/webhooks/event-types. */
export function eventTypeRoutes(upstreams: Upstreams): Route[] {
  return [
    route(op.listWebhookEventTypes, async (_input, { res, upstream }) => {
      const { eventTypes } = await upstreams.notifications.call((c) => c.listEventTypes, {}, upstream);
      res.json({ eventTypes: eventTypes.map(toEventTypeJson) });
    }),
  ];
}
