import type { EventSecrets, EventStream } from '@libs/bus';
import { EventSigner } from '@libs/signing';

/**
 * An event as its stream's producer publishes it (libs/outbox's relay): its JSON, routed by its action, under its
 * id, signed with the run's key for that producer. A test that publishes straight to an exchange uses this, so its
 * event passes the consumers' signature check as a real one does.
 */
export function signedMessage(run: { eventSecrets: EventSecrets }, stream: EventStream, event: { eventId: string; action: string }) {
  const content = Buffer.from(JSON.stringify(event));
  const signer = new EventSigner(stream, run.eventSecrets[stream]);
  return {
    routingKey: event.action,
    content,
    options: {
      messageId: event.eventId,
      contentType: 'application/json',
      headers: signer.headers({ routingKey: event.action, messageId: event.eventId, body: content }),
    },
  };
}
