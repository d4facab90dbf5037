import type { Channel } from 'amqplib';

export interface BusTopology {
  exchange: string;
  queue: string;
  deadLetterExchange: string;
  deadLetterQueue: string;
  /** An exchange that exists while the queue has not been deleted since it was last armed (QueueWitness). */
  deletionWitness: string;
  /** Deliveries a message gets before the queue dead-letters it. */
  deliveryLimit: number;
}

/** What publishes changes (for the audit and notifications services), each on an exchange of its own: two services and the gateway's identity area. */
export const EVENT_STREAMS = ['finance', 'scheduling', 'identity'] as const;
export type EventStream = (typeof EVENT_STREAMS)[number];

/** The service that produces (and signs) each stream's events: the gateway's identity area produces identity's. */
export const EVENT_PRODUCERS: Readonly<Record<EventStream, string>> = { finance: 'finance', scheduling: 'scheduling', identity: 'gateway' };

/**
 * The names of one stream's topology as one consuming service sees it: the stream's exchange `<stream>.events`, and
 * the consumer's own quorum queue `<consumer>.<stream>-events` with its dead-letter exchange and queue, so each
 * consumer gets every event and its dead letters apart from the others'. A namespace prefix keeps test runs apart
 * from each other and from `npm start`. The stream is finance's and the consumer audit unless named: they were the
 * only ones before. Audit's dead-letter exchange keeps the name it had then (`<stream>.events.dlx`).
 */
export function busTopology(namespace: string, stream: EventStream = 'finance', consumer = 'audit'): BusTopology {
  const queue = `${namespace}${consumer}.${stream}-events`;
  return {
    exchange: `${namespace}${stream}.events`,
    queue,
    deadLetterExchange: consumer === 'audit' ? `${namespace}${stream}.events.dlx` : `${queue}.dlx`,
    deadLetterQueue: `${queue}.dead`,
    deletionWitness: `${queue}.witness`,
    deliveryLimit: 5,
  };
}

/** The services that consume every stream, each through a quorum queue of its own (busTopology's `consumer`). */
export const EVENT_CONSUMERS = ['audit', 'notifications'] as const;

/**
 * A stream's topology as each consumer sees it, audit's first. A publisher declares them all (TopologyKeeper) and
 * watches each queue (libs/outbox), so an event published before a consumer first starts waits in its queue.
 */
export const consumerTopologies = (namespace: string, stream: EventStream): BusTopology[] =>
  EVENT_CONSUMERS.map((consumer) => busTopology(namespace, stream, consumer));

/**
 * Declares everything both sides rely on. Publisher and consumer each declare it
 * (through TopologyKeeper) after every (re)connect: the publisher, for every consumer, so that an
 * event published before a consumer first starts is routed to its queue.
 */
export async function declareTopology(channel: Channel, topology: BusTopology): Promise<void> {
  await channel.assertExchange(topology.exchange, 'topic', { durable: true });
  await channel.assertExchange(topology.deadLetterExchange, 'fanout', { durable: true });
  await channel.assertQueue(topology.deadLetterQueue, { durable: true });
  await channel.bindQueue(topology.deadLetterQueue, topology.deadLetterExchange, '');
  // A quorum queue counts deliveries itself, so a poison message is dead-lettered
  // after deliveryLimit attempts even when the consumer crashes on it each time.
  await channel.assertQueue(topology.queue, {
    durable: true,
    arguments: {
      'x-queue-type': 'quorum',
      'x-delivery-limit': topology.deliveryLimit,
      'x-dead-letter-exchange': topology.deadLetterExchange,
    },
  });
  await channel.bindQueue(topology.queue, topology.exchange, '#');
}
