import { z } from 'zod';
import { webhooksApi } from '@libs/contracts';
import { conflictOnKey, idempotentWrite } from '../platform/routing/headers';
import { operation } from '../platform/routing/operation';
import { byId } from '../platform/routing/path-ids';
import { cursor, queryChoice } from '../platform/routing/query-fields';
import { json, page, problem } from '../platform/routing/responses';
import { access, byEndpoint, endpointNotFound, ENDPOINTS_PATH, limit, tag } from './webhooks-operation-parts';
import { delivery } from './schemas';

/** The deliveries log: every event sent to an endpoint, with every attempt (docs/WEBHOOKS.md, "The API"). */

export const listWebhookDeliveries = operation({
  method: 'get',
  path: `${ENDPOINTS_PATH}/{id}/deliveries`,
  operationId: 'listWebhookDeliveries',
  summary: 'An endpoint’s deliveries, newest first, each with its attempts',
  tag,
  access,
  request: {
    path: byEndpoint,
    query: z.object({
      status: queryChoice(webhooksApi.DELIVERY_STATUSES).optional().meta({ description: 'Only deliveries in this state.' }),
      limit,
      cursor,
    }),
  },
  responses: { '200': json('A page of deliveries.', page('deliveries', delivery)), ...endpointNotFound },
});

export const retryWebhookDelivery = operation({
  method: 'post',
  path: '/api/v1/webhooks/deliveries/{id}/retry',
  operationId: 'retryWebhookDelivery',
  summary: 'Send a delivery again now, whatever its state',
  description: 'It starts the retry schedule afresh; its attempts so far stay in the log.',
  tag,
  access,
  request: { path: byId('Delivery'), headers: idempotentWrite },
  responses: {
    '202': json('Queued: the delivery as it now is.', delivery),
    '404': problem('No such delivery to an endpoint of yours.'),
    ...conflictOnKey,
  },
});
