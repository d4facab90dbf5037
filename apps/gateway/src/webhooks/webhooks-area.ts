import { areaOf, declaredIn, type Area } from '../platform/routing/area';
import type { Upstreams } from '../platform/upstreams/upstreams';
import * as deliveries from './delivery-operations';
import { deliveryRoutes } from './delivery-routes';
import * as endpoints from './endpoint-operations';
import { endpointRoutes } from './endpoint-routes';
import { WEBHOOKS } from './event-payloads';
import * as eventTypes from './event-type-operations';
import { eventTypeRoutes } from './event-type-routes';

/** /api/v1/webhooks/**: endpoints, their deliveries, the event types, and what each event sends (docs/WEBHOOKS.md). */
export const webhooksArea: Area<{ upstreams: Upstreams }> = {
  ...areaOf<{ upstreams: Upstreams }>(
    declaredIn(endpoints, ({ upstreams }) => endpointRoutes(upstreams)),
    declaredIn(deliveries, ({ upstreams }) => deliveryRoutes(upstreams)),
    declaredIn(eventTypes, ({ upstreams }) => eventTypeRoutes(upstreams)),
  ),
  webhooks: WEBHOOKS,
};
