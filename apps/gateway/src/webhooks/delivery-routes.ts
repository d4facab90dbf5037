import { route, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import * as op from './delivery-operations';
import { returned, toDeliveryJson } from './schemas';

/** /api/v1/webhooks/endpoints/{id}/deliveries and /api/v1/webhooks/deliveries. */
export function deliveryRoutes(upstreams: Upstreams): Route[] {
  const notifications = upstreams.notifications;
  return [
    route(op.listWebhookDeliveries, async ({ path, query }, { res, upstream }) => {
      const request = { endpointId: path.id, status: query.status ?? '', limit: query.limit, cursor: query.cursor ?? '' };
      const page = await notifications.call((c) => c.listDeliveries, request, upstream);
      res.json({ deliveries: page.deliveries.map(toDeliveryJson), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) });
    }),

    route(op.retryWebhookDelivery, async ({ path, headers }, { res, upstream }) => {
      const request = { id: path.id, idempotencyKey: headers['Idempotency-Key'] ?? '' };
      const { delivery } = await notifications.call((c) => c.retryDelivery, request, upstream);
      res.status(202).json(toDeliveryJson(returned(delivery, 'delivery')));
    }),
  ];
}
