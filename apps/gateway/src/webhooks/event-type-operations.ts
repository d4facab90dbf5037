import { z } from 'zod';
import { operation } from '../platform/routing/operation';
import { json } from '../platform/routing/responses';
import { access, tag } from './webhooks-operation-parts';
import { eventType } from './schemas';

/** The catalogue of event types; the document's `webhooks` section describes each one's payload. */

export const listWebhookEventTypes = operation({
  method: 'get',
  path: '/api/v1/webhooks/event-types',
  operationId: 'listWebhookEventTypes',
  summary: 'Every event type an endpoint may subscribe to',
  tag,
  access,
  request: {},
  responses: { '200': json('The catalogue.', z.object({ eventTypes: z.array(eventType) })) },
});
