import { z } from 'zod';
import { EVENT_TYPES, PING_OBJECT, type EventType, type EventTypeDeclaration } from '@libs/contracts';
import { DEFAULT_RETRY_SCHEDULE, DELIVERY_LIMITS, WEBHOOK_USER_AGENT } from '@libs/webhooks';
import type { WebhookSpec } from '../platform/openapi/webhook-spec';
import { tag } from './webhooks-operation-parts';

/**
 * What each event type sends (the OpenAPI document's `webhooks`), from the one catalogue of event types
 * (libs/contracts): the thin payload of libs/webhooks, its object typed by the event's entity, and the three
 * Standard Webhooks headers.
 */

const headers = z.object({
  'webhook-id': z.string().meta({ description: "The event's id, the same on every retry: deduplicate on it." }),
  'webhook-timestamp': z.string().regex(/^\d{1,12}$/).meta({ description: 'When this attempt was signed, in Unix seconds. Refuse one far from your clock (5 minutes).' }),
  'webhook-signature': z
    .string()
    .regex(/^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$/)
    .meta({
      description:
        '`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed with the bytes of the secret; during a rotation two of them, space-separated. Verify the raw body.',
    }),
  'User-Agent': z.literal(WEBHOOK_USER_AGENT),
});

const SECONDS = DELIVERY_LIMITS.timeoutMs / 1000;
const KILOBYTES = DELIVERY_LIMITS.maxResponseBytes / 1024;

const responses = {
  '2XX': { description: `Delivered. At most ${KILOBYTES} KB of the answer is read, and its first 1 KB is kept in the deliveries log.` },
  '410': { description: 'Gone: the endpoint is disabled, and nothing more is sent to it until its owner enables it again.' },
  default: {
    description: `Anything else, a redirect (never followed), or no answer within ${SECONDS} s: retried after ${DEFAULT_RETRY_SCHEDULE.split(',').slice(1).join(', ')} (each ±10%, as the deployment configures), then the delivery is \`failed\`.`,
  },
};

/** One object: fetch its `url` with your own key to read it as it is now. */
const oneObject = (type: string, what: string) =>
  z.object({
    type: z.literal(type),
    id: z.string(),
    version: z.int().optional().meta({ description: `The ${what}'s version after the change (its ETag), when it has one.` }),
    url: z.url().meta({ description: `Where the API serves the ${what}.` }),
  });

/** A bulk change: the ids of every object, to read through the type's list. */
const manyObjects = (type: string) => z.object({ type: z.literal(type), ids: z.array(z.string()) });

function objectOf(declared: EventTypeDeclaration) {
  if (!declared.entityType) return oneObject(PING_OBJECT.type, 'endpoint');
  return declared.bulk ? manyObjects(declared.entityType) : oneObject(declared.entityType, declared.entityType.replaceAll('_', ' '));
}

const payloadOf = (name: EventType, declared: EventTypeDeclaration) =>
  z.object({
    id: z.string().meta({ description: 'The event id, as `webhook-id`.' }),
    type: z.literal(name),
    occurredAt: z.iso.datetime().meta({ description: 'When the change was committed. Order by it (and `version`): deliveries may arrive out of order.' }),
    data: z.object({ object: objectOf(declared) }),
  });

/** `appointment.no_show` → `appointmentNoShowWebhook`. */
const operationIdOf = (name: string) => `${name.replace(/[._]([a-z])/g, (_, letter: string) => letter.toUpperCase())}Webhook`;

export const WEBHOOKS: WebhookSpec[] = Object.entries(EVENT_TYPES).map(([name, declared]: [string, EventTypeDeclaration]) => ({
  name,
  operationId: operationIdOf(name),
  summary: `${declared.description[0].toUpperCase()}${declared.description.slice(1)}`,
  description: declared.entityType
    ? `Sent to each endpoint subscribed to \`${name}\` (or \`*\`) whose owner may read the ${declared.entityType.replaceAll('_', ' ')} through the API.`
    : 'Sent to one endpoint when its owner asks (`POST /api/v1/webhooks/endpoints/{id}/test`), whatever it subscribes to.',
  tag,
  headers,
  payload: payloadOf(name as EventType, declared),
  responses,
}));
