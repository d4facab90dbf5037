import { z } from 'zod';
import { EVENT_TYPES, isEventType } from '../event-types';
import { patchOf, text } from './finance';
import { WEBHOOK_LIMITS as LIMITS } from './limits';
import { instant } from './scheduling-fields';

/**
 * The webhook API's request bodies (docs/WEBHOOKS.md). The gateway validates and documents requests with these;
 * the notifications service parses what reaches it over gRPC with the same schemas, then checks what only it can:
 * the URL against its address policy, the endpoint's owner, the number of endpoints a user has.
 */

/** Every type an endpoint may name: the catalogue's. */
const EVENT_TYPE_COUNT = Object.keys(EVENT_TYPES).length;
const EVENT_TYPES_MESSAGE = 'must name event types of the catalogue (GET /api/v1/webhooks/event-types) once each, or be ["*"] for every type';

/** `["*"]`, or names of the catalogue, each once. */
export const eventTypeList = z
  .array(z.string().max(64, { message: EVENT_TYPES_MESSAGE }), { message: EVENT_TYPES_MESSAGE })
  .min(1, { message: EVENT_TYPES_MESSAGE })
  .max(EVENT_TYPE_COUNT, { message: EVENT_TYPES_MESSAGE })
  .refine(
    (types) => (types.length === 1 && types[0] === '*') || (types.every(isEventType) && new Set(types).size === types.length),
    { message: EVENT_TYPES_MESSAGE },
  )
  .meta({ description: 'Event types to receive, or ["*"] for all of them.' });

/** The policy on addresses (https only, no internal addresses) is the service's: it depends on its configuration. */
export const endpointUrl = z
  .string({ message: 'must be an https URL' })
  .min(1, { message: 'is required' })
  .max(LIMITS.urlMaxLength, { message: `must be at most ${LIMITS.urlMaxLength} characters` })
  .meta({ format: 'uri', description: 'Where deliveries are POSTed: https, on a public address (docs/WEBHOOKS.md, "What is refused").' });

const description = text(LIMITS.descriptionMaxLength);

export const newEndpoint = z
  .object({ url: endpointUrl, description: description.optional(), eventTypes: eventTypeList })
  .strict()
  .meta({ id: 'NewWebhookEndpoint' });

export const endpointPatch = patchOf({
  url: endpointUrl,
  description: description.nullable().meta({ description: 'null (or "") removes it.' }),
  eventTypes: eventTypeList,
  enabled: z.boolean({ message: 'must be true or false' }),
}).meta({ id: 'WebhookEndpointPatch' });

export const recovery = z
  .object({ since: instant.meta({ description: `Queue again every event since then; at most ${LIMITS.retentionDays} days ago.` }) })
  .strict()
  .meta({ id: 'WebhookRecovery' });

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export const deliveryStatus = z.enum(DELIVERY_STATUSES, { message: `must be one of ${DELIVERY_STATUSES.join(', ')}` });
