import type { EventSecrets, EventStream } from '@libs/bus';
import { EventSigner, type SignedParts } from '@libs/signing';

/** A run's producer secrets: a RunningSystem's, or a unit test's own (libs/bus generateEventSecrets). */
type Run = { eventSecrets: EventSecrets };

/** The headers with which `stream`'s producer signs a message (libs/outbox's relay sends them). */
export const signedHeaders = (run: Run, stream: EventStream, parts: SignedParts): Record<string, string> =>
  new EventSigner(stream, run.eventSecrets[stream]).headers(parts);

/**
 * An event as its stream's producer publishes it (libs/outbox's relay): its JSON, routed by its action, under its
 * id, signed with the run's key for that producer. A test that publishes straight to an exchange uses this, so its
 * event passes the consumers' signature check as a real one does.
 */
export function signedMessage(run: Run, stream: EventStream, event: { eventId: string; action: string }) {
  const content = Buffer.from(JSON.stringify(event));
  return {
    routingKey: event.action,
    content,
    options: {
      messageId: event.eventId,
      contentType: 'application/json',
      headers: signedHeaders(run, stream, { routingKey: event.action, messageId: event.eventId, body: content }),
    },
  };
}
