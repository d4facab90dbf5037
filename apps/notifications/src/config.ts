import { z } from 'zod';
import { EVENT_STREAMS } from '@libs/bus';
import { busFields, cursorSecretField, env, eventTrustFields, grpcServiceFields, actorTrustFields, loadConfig } from '@libs/config';
import { mailFields, refineMailFields } from './mail/mail-config';
import { DEFAULT_RETRY_SCHEDULE, DELIVERY_LIMITS, type AddressPolicy } from '@libs/webhooks';
import { retryScheduleField } from './retry-schedule-field';

/** Every variable the service reads (tools/kubernetes/manifests.spec.ts checks the manifests against it). */
export const configSchema = z
  .object({
  ...grpcServiceFields('notifications'),
  ...busFields(),
  ...actorTrustFields(),
  ...eventTrustFields(EVENT_STREAMS),
  CONSUMER_PREFETCH: env.int(50, 1, 1_000).describe('unacknowledged event messages the consumer may hold, per stream, at most: fewer when that many of the largest events would pass its byte budget (docs/decisions/0024)'),
  CURSOR_SECRET: cursorSecretField('dev-only-notifications-cursor-secret'),
  PUBLIC_API_URL: env
    .url('http://127.0.0.1:3000', ['http:', 'https:'])
    .describe("the gateway as integrators reach it: the start of each webhook payload's `data.object.url`"),
  WEBHOOK_RETRY_SCHEDULE: retryScheduleField(DEFAULT_RETRY_SCHEDULE).describe(
    'waits before each delivery attempt, the first before the first (units ms, s, m, h); after the last failure a delivery is `failed`',
  ),
  WEBHOOK_TIMEOUT_MS: env
    .int(DELIVERY_LIMITS.timeoutMs, 100, 60_000)
    .describe('the whole of one delivery attempt: resolving, connecting, sending and reading the answer'),
  WEBHOOK_CONCURRENCY: env
    .int(64, 1, 1_000)
    .describe('deliveries this instance makes at once, over all endpoints (each endpoint has at most 4 in flight over all instances)'),
  WEBHOOK_POLL_MS: env
    .int(250, 10, 60_000)
    .describe("pause between looks for due deliveries when there was none (this instance's own new events wake it at once)"),
  WEBHOOK_ALLOW_LOOPBACK: env.devOnly().describe('let endpoints point at this machine (127.0.0.0/8, ::1, localhost)'),
  WEBHOOK_ALLOW_HTTP: env.devOnly().describe('let endpoints use plain `http://`'),
  WEBHOOK_ALLOW_PRIVATE: env
    .bool(false)
    .describe('let endpoints point at private networks (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7); link-local is never allowed'),
  ...mailFields,
  })
  .superRefine(refineMailFields);

export type NotificationsConfig = z.infer<typeof configSchema>;

export const readConfig = (): NotificationsConfig => loadConfig('notifications', configSchema);

/** Where deliveries may go (docs/WEBHOOKS.md, "What is refused"). */
export const addressPolicyOf = (config: NotificationsConfig): AddressPolicy => ({
  allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK,
  allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
  allowHttp: config.WEBHOOK_ALLOW_HTTP,
});
