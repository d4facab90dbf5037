import type { Response } from 'express';
import type { notificationsV1 } from '@libs/contracts';
import { etagOf } from '../platform/http/if-match';
import { route, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import * as op from './endpoint-operations';
import { returned, toDeliveryJson, toEndpointJson } from './schemas';

/** Sends one endpoint with its ETag, and its secret when the answer carries one (create and rotate, only). */
function sendEndpoint(res: Response, message: notificationsV1.Endpoint | undefined, secret?: string, status = 200): void {
  const endpoint = returned(message, 'endpoint');
  res.status(status).setHeader('ETag', etagOf(endpoint.version));
  res.json(secret === undefined ? toEndpointJson(endpoint) : { ...toEndpointJson(endpoint), secret });
}

/** /api/v1/webhooks/endpoints. */
export function endpointRoutes(upstreams: Upstreams): Route[] {
  const notifications = upstreams.notifications;
  return [
    route(op.createWebhookEndpoint, async ({ headers, body }, { res, upstream }) => {
      const request = {
        url: body.url,
        description: body.description ?? '',
        eventTypes: body.eventTypes,
        idempotencyKey: headers['Idempotency-Key'] ?? '',
      };
      const created = await notifications.call((c) => c.createEndpoint, request, upstream);
      res.location(`${op.createWebhookEndpoint.path}/${created.endpoint?.id}`);
      sendEndpoint(res, created.endpoint, created.secret, 201);
    }),

    route(op.listWebhookEndpoints, async ({ query }, { res, upstream }) => {
      const request = { limit: query.limit, cursor: query.cursor ?? '', ownerId: '' };
      const page = await notifications.call((c) => c.listEndpoints, request, upstream);
      res.json({ endpoints: page.endpoints.map(toEndpointJson), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) });
    }),

    route(op.getWebhookEndpoint, async ({ path }, { res, upstream }) => {
      const { endpoint } = await notifications.call((c) => c.getEndpoint, { id: path.id }, upstream);
      sendEndpoint(res, endpoint);
    }),

    route(op.updateWebhookEndpoint, async ({ path, body, expectedVersion }, { res, upstream }) => {
      const request: notificationsV1.UpdateEndpointRequest = {
        id: path.id,
        url: body.url,
        // null removes it, as '' does: the service stores no empty description.
        description: body.description === undefined ? undefined : (body.description ?? ''),
        eventTypes: body.eventTypes ?? [],
        eventTypesGiven: body.eventTypes !== undefined,
        enabled: body.enabled,
        expectedVersion,
      };
      const { endpoint } = await notifications.call((c) => c.updateEndpoint, request, upstream);
      sendEndpoint(res, endpoint);
    }),

    route(op.deleteWebhookEndpoint, async ({ path }, { res, upstream }) => {
      await notifications.call((c) => c.deleteEndpoint, { id: path.id }, upstream);
      res.status(204).end();
    }),

    route(op.rotateWebhookSecret, async ({ path, headers }, { res, upstream }) => {
      const request = { id: path.id, idempotencyKey: headers['Idempotency-Key'] ?? '' };
      const rotated = await notifications.call((c) => c.rotateSecret, request, upstream);
      sendEndpoint(res, rotated.endpoint, rotated.secret);
    }),

    route(op.testWebhookEndpoint, async ({ path, headers }, { res, upstream }) => {
      const request = { id: path.id, idempotencyKey: headers['Idempotency-Key'] ?? '' };
      const { delivery } = await notifications.call((c) => c.testEndpoint, request, upstream);
      res.status(202).json(toDeliveryJson(returned(delivery, 'delivery')));
    }),

    route(op.recoverWebhookEvents, async ({ path, headers, body }, { res, upstream }) => {
      const request = { endpointId: path.id, since: body.since, idempotencyKey: headers['Idempotency-Key'] ?? '' };
      const { queued } = await notifications.call((c) => c.recoverEvents, request, upstream);
      res.status(202).json({ queued });
    }),
  ];
}
