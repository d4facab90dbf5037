import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import { requestContext, type Logger } from '@libs/logging';
import { inSpan, SpanKind } from '@libs/tracing';
import { requestIdOf } from './message-headers';

/**
 * What the handler decided about a message; each is chosen on purpose:
 * - ack: stored (or already stored); remove it.
 * - retry: a passing failure (database down); put it back, the queue counts the attempt.
 * - reject: it can never be stored (malformed); dead-letter it at once.
 */
export type ConsumerOutcome = 'ack' | 'retry' | 'reject';

export interface Consumer {
  /** Messages being handled right now. */
  readonly inFlight: number;
  /** Stops taking new messages and waits (up to graceMs) for those in hand. */
  stop(graceMs: number): Promise<void>;
}

export function startConsumer(options: {
  queue: string;
  prefetch: number;
  logger: Logger;
  handle: (message: ConsumeMessage) => Promise<ConsumerOutcome>;
}): { consumer: Consumer; attach: (model: ChannelModel) => Promise<Channel> } {
  let inFlight = 0;
  let stopping = false;
  let current: { channel: Channel; tag: string } | undefined;

  async function settle(channel: Channel, message: ConsumeMessage, outcome: ConsumerOutcome): Promise<void> {
    // A message delivered on a channel that has since closed will be redelivered;
    // settling it on a dead channel would throw, and on another channel would be wrong.
    if (current?.channel !== channel) return;
    try {
      if (outcome === 'ack') channel.ack(message);
      else channel.nack(message, false, outcome === 'retry');
    } catch (error) {
      options.logger.warn({ err: error }, 'could not settle a message; it will be redelivered');
    }
  }

  async function attach(model: ChannelModel): Promise<Channel> {
    const channel = await model.createChannel();
    await channel.prefetch(options.prefetch);
    channel.on('close', () => {
      if (current?.channel === channel) current = undefined;
    });
    const { consumerTag } = await channel.consume(options.queue, (message) => {
      if (!message) return; // the broker cancelled us; recovery resubscribes
      inFlight += 1;
      const headers = message.properties.headers ?? {};
      // The handler runs in a span continued from the message's traceparent header.
      requestContext
        .run({ requestId: requestIdOf(message.properties) }, () =>
          inSpan(`${options.queue} process`, SpanKind.CONSUMER, headers, () => options.handle(message), {
            'messaging.system': 'rabbitmq',
            'messaging.message.id': String(message.properties.messageId),
          }),
        )
        .catch((error: unknown) => {
          options.logger.error({ err: error }, 'consumer handler failed; the message goes back to the queue');
          return 'retry' as const;
        })
        .then((outcome) => settle(channel, message, outcome))
        .finally(() => {
          inFlight -= 1;
        });
    });
    current = { channel, tag: consumerTag };
    if (stopping) await channel.cancel(consumerTag);
    return channel;
  }

  const consumer: Consumer = {
    get inFlight() {
      return inFlight;
    },
    async stop(graceMs) {
      stopping = true;
      if (current) await current.channel.cancel(current.tag).catch(() => undefined);
      const deadline = Date.now() + graceMs;
      while (inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    },
  };
  return { consumer, attach };
}
