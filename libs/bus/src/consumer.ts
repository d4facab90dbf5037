import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import { prefetchWithinBudget } from '@libs/contracts';
import { requestContext, type Logger } from '@libs/logging';
import { inSpan, SpanKind } from '@libs/tracing';
import { ChannelSettler } from './channel-settler';
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
   * Told what the broker reports about the queue (undefined: it does not exist), on a timer (watchSubscription).
   * The broker's cancel is not always sent: RabbitMQ 3.10 re-attaches a consumer to a quorum queue deleted and
   * declared again at once, without a cancel, and never delivers to it. So the consumer takes its subscription as
   * lost, and consumes again on a new channel, when the queue is gone or counts no consumer, or when messages stay
   * ready across two reports while it has room and received none. A subscription that received nothing for a
   * while (idleRenewalMs) is renewed: a lost one may hold messages that another instance can never take.
   */
  observe(queue: { ready: number; consumers: number } | undefined): void;
}

/**
 * Pauses before consuming again on the same connection (the first, doubling up to the
 * last), so that a queue that cannot be declared or a channel that keeps failing is
 * not hammered.
 */
const RESUBSCRIBE_FIRST_DELAY_MS = 1_000;
const RESUBSCRIBE_MAX_DELAY_MS = 5_000;
/** How long a subscription may receive nothing before it is renewed, in case it was lost without a sign. */
const IDLE_RENEWAL_MS = 60_000;

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
  /** Messages held unacknowledged at most; fewer when that many of the largest events would pass the byte budget. */
  prefetch: number;
  logger: Logger;
  handle: (message: ConsumeMessage) => Promise<ConsumerOutcome>;
  idleRenewalMs?: number;
}): { consumer: Consumer; attach: (model: ChannelModel) => Promise<void> } {
  const { logger } = options;
  const queue = options.topology.topology.queue;
  const idleRenewalMs = options.idleRenewalMs ?? IDLE_RENEWAL_MS;
  // AMQP bounds a consumer's unacknowledged messages by count only (RabbitMQ ignores prefetch-size).
  const prefetch = prefetchWithinBudget(options.prefetch);
  let inFlight = 0;
  let stopping = false;
  let connection: ChannelModel | undefined;
  let current: { channel: Channel; tag: string; settler: ChannelSettler } | undefined;
  let resubscribingOn: ChannelModel | undefined;
  /** Deliveries counted since the last subscription, and what the last observe() saw. */
  let deliveries = 0;
  let lastDeliveryAt = Date.now();
  let previous: { ready: number; deliveries: number } | undefined;

  function settle(channel: Channel, message: ConsumeMessage, outcome: ConsumerOutcome): void {
    // A message delivered on a channel that has since closed will be redelivered;
    // settling it on a dead channel would throw, and on another channel would be wrong.
    if (current?.channel !== channel) return;
    if (outcome === 'ack') current.settler.ack(message);
    else current.settler.nack(message, outcome === 'retry');
  }

  function deliver(channel: Channel, settler: ChannelSettler, message: ConsumeMessage): void {
    settler.delivered(message);
    inFlight += 1;
    deliveries += 1;
    lastDeliveryAt = Date.now();
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

  /** Why the broker's report shows this subscription lost, if it does. */
  function lostSubscription(
    queue: { ready: number; consumers: number } | undefined,
    seen: { ready: number; deliveries: number } | undefined,
  ): string | undefined {
    if (!queue) return 'the queue is gone though this consumer was subscribed';
    if (queue.consumers === 0) return 'RabbitMQ counts no consumer on the queue though this one was subscribed';
    const starved = seen !== undefined && seen.ready > 0 && queue.ready > 0 && seen.deliveries === deliveries;
    if (starved && inFlight < prefetch) {
      return `${queue.ready} messages stay ready but RabbitMQ delivered none to this consumer, which has room`;
    }
    return undefined;
  }

  /**
   * Subscribes afresh on a new channel, then closes the old one, leaving no gap. An idle subscription may be one
   * the broker lost without a sign while it still holds messages for it: closing its channel frees them.
   */
  async function renewSubscription(model: ChannelModel): Promise<void> {
    resubscribingOn = model;
    const old = current;
    try {
      await subscribe(model);
      void old?.channel.close().catch(() => undefined);
      logger.debug({ queue }, 'renewed an idle subscription');
    } catch (error) {
      logger.warn({ err: error, queue }, 'could not renew an idle subscription; keeping the one it has');
    } finally {
      if (resubscribingOn === model) resubscribingOn = undefined;
    }
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
    const settler = new ChannelSettler(channel, logger);
    try {
      await channel.prefetch(prefetch);
      const { consumerTag } = await channel.consume(queue, (message) =>
        message ? deliver(channel, settler, message) : cancelled(model, channel),
      );
      current = { channel, tag: consumerTag, settler };
      lastDeliveryAt = Date.now();
      previous = undefined;
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
    observe(queue) {
      const model = connection;
      const seen = previous;
      previous = queue && { ready: queue.ready, deliveries };
      // Not subscribed yet, or already consuming again: the broker's figures are simply behind.
      if (!model || stopping || !current || resubscribingOn === model) return;
      const why = lostSubscription(queue, seen);
      if (why) abandonSubscription(model, why);
      else if (inFlight === 0 && Date.now() - lastDeliveryAt >= idleRenewalMs) void renewSubscription(model);
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
