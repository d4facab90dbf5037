import { z } from 'zod';
import { webhooksApi, type notificationsV1 } from '@libs/contracts';
import { HttpProblem } from '@libs/http-problems';
import { DESTINATION_RULES } from '@libs/webhooks';
import { problemSchema } from '../platform/routing/responses';

/** What the webhooks area answers (docs/WEBHOOKS.md, "The API"), and the conversions from the service's messages. */

const instant = z.iso.datetime();
/** The service sends '' for an absent value; the API shows null. */
const orNull = (value: string) => (value === '' ? null : value);

export const endpoint = z
  .object({
    id: z.uuid(),
    url: z.string(),
    description: z.string().nullable(),
    eventTypes: z.array(z.string()).meta({ description: 'The event types it receives, or `["*"]` for all of them.' }),
    enabled: z.boolean(),
    disabledReason: z
      .string()
      .nullable()
      .meta({ description: 'Why deliveries stopped without its owner: `gone` (the receiver answered 410) or `failing` (every delivery failed for 5 days).' }),
    previousSecretExpiresAt: instant.nullable().meta({ description: 'Until when the secret replaced by a rotation still signs beside the new one.' }),
    ownerId: z.string().meta({ description: 'The user it belongs to.' }),
    createdAt: instant,
    updatedAt: instant,
    version: z.int().meta({ description: 'Its ETag; raised by every change.' }),
  })
  .meta({ id: 'WebhookEndpoint', description: 'Where deliveries of the event types it names are POSTed.' });

export const endpointWithSecret = endpoint
  .extend({
    secret: z
      .string()
      .meta({ description: '`whsec_` and base64 of 32 random bytes: the key to verify deliveries with. Shown in this answer only (and in its replay).' }),
  })
  .meta({ id: 'WebhookEndpointWithSecret' });

const attempt = z
  .object({
    startedAt: instant,
    durationMs: z.int(),
    status: z.int().nullable().meta({ description: 'The HTTP status answered; null when there was no answer (see `error`).' }),
    error: z
      .string()
      .nullable()
      .meta({ description: 'Why there was no answer: `timeout`, `connection`, `dns`, `tls`, `too-large`, `protocol`, `refused-url` or `refused-address`.' }),
    errorDetail: z.string().nullable().meta({ description: "The error's code, or the address rule a refused destination broke." }),
    responseExcerpt: z.string().nullable().meta({ description: 'The first 1 KB of the answer; null when it had none.' }),
  })
  .meta({ id: 'WebhookAttempt' });

export const delivery = z
  .object({
    id: z.uuid(),
    endpointId: z.uuid(),
    eventId: z.string().meta({ description: "The event's id: the `webhook-id` header of every attempt." }),
    eventType: z.string(),
    status: z.enum(webhooksApi.DELIVERY_STATUSES),
    attemptCount: z.int(),
    nextAttemptAt: instant.nullable().meta({ description: 'When it is tried next; null once delivered or failed.' }),
    createdAt: instant,
    attempts: z.array(attempt).meta({ description: 'Every attempt, oldest first.' }),
  })
  .meta({ id: 'WebhookDelivery', description: 'One event on its way to one endpoint.' });

export const recoveryQueued = z
  .object({ queued: z.int().min(0).meta({ description: 'Deliveries queued: one per event.' }) })
  .meta({ id: 'WebhookRecoveryQueued' });

export const eventType = z
  .object({
    name: z.string().meta({ description: 'The `type` of its payloads, and the name an endpoint subscribes with.' }),
    description: z.string(),
    entityType: z.string().nullable().meta({ description: "What its payload's `data.object` is; null for `webhook.ping`." }),
    bulk: z.boolean().meta({ description: 'Its payload carries `data.object.ids` (many objects) instead of one `id` and `url`.' }),
  })
  .meta({ id: 'WebhookEventType' });

/** The 422 of a URL the address policy refuses. */
export const urlRefusedProblem = problemSchema
  .extend({ rule: z.enum(DESTINATION_RULES).meta({ description: 'The rule the URL broke (docs/WEBHOOKS.md, "What is refused").' }) })
  .meta({ id: 'WebhookUrlRefusedProblem' });

/** A record the service's answer must carry; its absence is the service's fault. */
export function returned<M>(message: M | undefined, what: string): M {
  if (!message) throw new HttpProblem(500, `the notifications service returned no ${what}`);
  return message;
}

export const toEndpointJson = (m: notificationsV1.Endpoint): z.infer<typeof endpoint> => ({
  id: m.id,
  url: m.url,
  description: orNull(m.description),
  eventTypes: m.eventTypes,
  enabled: m.enabled,
  disabledReason: orNull(m.disabledReason),
  previousSecretExpiresAt: orNull(m.previousSecretExpiresAt),
  ownerId: m.ownerId,
  createdAt: m.createdAt,
  updatedAt: m.updatedAt,
  version: m.version,
});

export const toDeliveryJson = (m: notificationsV1.Delivery): z.infer<typeof delivery> => ({
  id: m.id,
  endpointId: m.endpointId,
  eventId: m.eventId,
  eventType: m.eventType,
  status: m.status as webhooksApi.DeliveryStatus,
  attemptCount: m.attemptCount,
  nextAttemptAt: orNull(m.nextAttemptAt),
  createdAt: m.createdAt,
  attempts: m.attempts.map((a) => ({
    startedAt: a.startedAt,
    durationMs: a.durationMs,
    status: a.status === 0 ? null : a.status,
    error: orNull(a.error),
    errorDetail: orNull(a.errorDetail),
    responseExcerpt: orNull(a.responseExcerpt),
  })),
});

export const toEventTypeJson = (m: notificationsV1.EventType): z.infer<typeof eventType> => ({
  name: m.name,
  description: m.description,
  entityType: orNull(m.entityType),
  bulk: m.bulk,
});
