import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import { requestContext, type Logger } from '@libs/logging';
import { inSpan, SpanKind } from '@libs/tracing';
import { requestIdOf } from './message-headers';
import type { TopologyKeeper } from './topology-keeper';

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
  /**
   * Told that the broker counts no consumer on the queue while this one believes it consumes: its subscription
   * ended without a cancel reaching it, so it consumes again on a new channel.
   */
  resubscribeIfLost(): void;
}

/**
 * Pauses before consuming again on the same connection (the first, doubling up to the
 * last), so that a queue that cannot be declared or a channel that keeps failing is
 * not hammered.
 */
const RESUBSCRIBE_FIRST_DELAY_MS = 1_000;
const RESUBSCRIBE_MAX_DELAY_MS = 5_000;

/**
 * Consumes the topology's queue. `attach` runs on every (re)connect, after the
 * topology was declared on the new connection. While the connection stays up,
 * the broker may still take the consumer away: it cancels it when the queue is
 * deleted, and closes its channel on a channel error. Either way the topology
 * is declared again and consumption resumes, with backoff, until it succeeds or
 * the connection goes (its successor's setup then consumes).
 */
export function startConsumer(options: {
  topology: TopologyKeeper;
  prefetch: number;
  logger: Logger;
  handle: (message: ConsumeMessage) => Promise<ConsumerOutcome>;
}): { consumer: Consumer; attach: (model: ChannelModel) => Promise<void> } {
  const { logger } = options;
  const queue = options.topology.topology.queue;
  let inFlight = 0;
  let stopping = false;
  let connection: ChannelModel | undefined;
  let current: { channel: Channel; tag: string } | undefined;
  let resubscribingOn: ChannelModel | undefined;

  async function settle(channel: Channel, message: ConsumeMessage, outcome: ConsumerOutcome): Promise<void> {
    // A message delivered on a channel that has since closed will be redelivered;
    // settling it on a dead channel would throw, and on another channel would be wrong.
    if (current?.channel !== channel) return;
    try {
      if (outcome === 'ack') channel.ack(message);
      else channel.nack(message, false, outcome === 'retry');
    } catch (error) {
      logger.warn({ err: error }, 'could not settle a message; it will be redelivered');
    }
  }

  function deliver(channel: Channel, message: ConsumeMessage): void {
    inFlight += 1;
    const headers = message.properties.headers ?? {};
    // The handler runs in a span continued from the message's traceparent header.
    requestContext
      .run({ requestId: requestIdOf(message.properties) }, () =>
        inSpan(`${queue} process`, SpanKind.CONSUMER, headers, () => options.handle(message), {
          'messaging.system': 'rabbitmq',
          'messaging.message.id': String(message.properties.messageId),
        }),
      )
      .catch((error: unknown) => {
        logger.error({ err: error }, 'consumer handler failed; the message goes back to the queue');
        return 'retry' as const;
      })
      .then((outcome) => settle(channel, message, outcome))
      .finally(() => {
        inFlight -= 1;
      });
  }

  /** The broker cancelled the consumer: the queue was deleted (or its last replica lost). */
  function cancelled(model: ChannelModel, channel: Channel): void {
    if (current?.channel === channel) abandonSubscription(model, 'RabbitMQ cancelled the consumer (was the queue deleted?)');
  }

  /**
   * Leaves a subscription the broker no longer serves, and consumes again on a new channel. Messages in hand
   * are still stored; their queue is gone, so there is nothing to ack them to.
   */
  function abandonSubscription(model: ChannelModel, why: string): void {
    const abandoned = current;
    current = undefined;
    void abandoned?.channel.close().catch(() => undefined);
    void resubscribe(model, why);
  }

  async function subscribe(model: ChannelModel): Promise<void> {
    const channel = await model.createChannel();
    // Unheard, a channel error would close the whole connection; the close that follows is handled here.
    channel.on('error', (error: Error) => logger.warn({ err: error, queue }, 'the consumer channel failed'));
    channel.on('close', () => {
      if (current?.channel !== channel) return;
      current = undefined;
      if (!stopping && connection === model) void resubscribe(model, 'the consumer channel closed');
    });
    try {
      await channel.prefetch(options.prefetch);
      const { consumerTag } = await channel.consume(queue, (message) =>
        message ? deliver(channel, message) : cancelled(model, channel),
      );
      current = { channel, tag: consumerTag };
    } catch (error) {
      await channel.close().catch(() => undefined);
      throw error;
    }
    if (stopping) await channel.cancel(current.tag);
  }

  async function resubscribe(model: ChannelModel, why: string): Promise<void> {
    if (resubscribingOn === model) return;
    resubscribingOn = model;
    const delay = (attempt: number) => Math.min(RESUBSCRIBE_FIRST_DELAY_MS * 2 ** (attempt - 1), RESUBSCRIBE_MAX_DELAY_MS);
    logger.warn({ queue, retryInMs: delay(1) }, `${why}; declaring the topology again and consuming again`);
    try {
      for (let attempt = 1; ; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, delay(attempt)).unref());
        if (stopping || connection !== model) return; // a new connection's setup consumes by itself
        try {
          await options.topology.declare();
          await subscribe(model);
          logger.info({ queue, attempt }, 'consuming again');
          return;
        } catch (error) {
          logger.warn({ err: error, queue, attempt, retryInMs: delay(attempt + 1) }, 'cannot consume again yet; retrying');
        }
      }
    } finally {
      if (resubscribingOn === model) resubscribingOn = undefined;
    }
  }

  async function attach(model: ChannelModel): Promise<void> {
    connection = model;
    model.once('close', () => {
      if (connection === model) connection = undefined;
    });
    await subscribe(model);
  }

  const consumer: Consumer = {
    get inFlight() {
      return inFlight;
    },
    resubscribeIfLost() {
      const model = connection;
      // Not subscribed yet, or already consuming again: the broker's count is simply behind.
      if (!model || stopping || !current || resubscribingOn === model) return;
      abandonSubscription(model, 'RabbitMQ counts no consumer on the queue though this one was subscribed');
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
