import { EVENT_TYPES, type EventType } from '@libs/contracts';
import { verifySignature, type VerifyResult } from '@libs/webhooks';
import type { webhooks } from './generated/api';

/** Every event type a webhook endpoint may receive (`GET /api/v1/webhooks/event-types` lists them with their descriptions). */
export type WebhookEventType = keyof webhooks;

/** The payload of one event type (or, by default, of any): typed from the OpenAPI document's `webhooks` section. */
export type WebhookEvent<T extends WebhookEventType = WebhookEventType> = {
  [K in T]: webhooks[K]['post']['requestBody']['content']['application/json'];
}[T];

/** The event types as values, to check or switch on `event.type`. */
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = Object.keys(EVENT_TYPES) as EventType[];

export type WebhookRefusal = Exclude<VerifyResult, { ok: true }>['reason'];

/** A delivery that is not what this system signed: forged, altered, replayed late, or missing a header. */
export class WebhookVerificationError extends Error {
  constructor(readonly reason: WebhookRefusal) {
    super(`the webhook delivery does not verify: ${reason}`);
    this.name = 'WebhookVerificationError';
  }
}

/** Headers as Node gives them (`req.headers`), as a plain record, or as a Fetch `Headers`. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * Checks a delivery's Standard Webhooks signature against the raw body, as received (bytes or text, before any
 * JSON parser: a re-serialised body is not the one that was signed), and returns its event once it verifies;
 * throws a WebhookVerificationError otherwise. `secret` is the endpoint's `whsec_…` secret, or both secrets during
 * a rotation. A timestamp more than 5 minutes from this machine's clock is refused, so a captured delivery cannot
 * be replayed later. Deduplicate on the event's `id` (the `webhook-id` header): delivery is at least once.
 */
export function verifyWebhook(secret: string | readonly string[], headers: WebhookHeaders, body: Buffer | string): WebhookEvent {
  const check = verifySignature({
    body,
    headers: headers instanceof Headers ? Object.fromEntries(headers) : headers,
    secrets: typeof secret === 'string' ? [secret] : secret,
  });
  if (!check.ok) throw new WebhookVerificationError(check.reason);
  return JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as WebhookEvent;
}
