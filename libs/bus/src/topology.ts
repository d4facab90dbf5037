import type { Channel } from 'amqplib';
import type { ServiceName } from '@libs/topology';

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
export const EVENT_CONSUMERS = ['audit', 'notifications'] as const satisfies readonly ServiceName[];

/**
 * A stream's topology as each consumer sees it, audit's first. A publisher keeps each queue bound to its exchange
 * (TopologyKeeper) and watches it (libs/outbox); it declares a missing queue only where its broker user may (guest,
 * in development and tests): deployed, the broker's definitions declare every queue, so an event published before a
 * consumer first starts waits in its queue (docs/decisions/0021).
 */
export const consumerTopologies = (namespace: string, stream: EventStream): BusTopology[] =>
  EVENT_CONSUMERS.map((consumer) => busTopology(namespace, stream, consumer));

/** The service that publishes each stream on its exchange (its outbox relay): the gateway for its identity area. */
export const STREAM_PUBLISHERS: Readonly<Record<EventStream, ServiceName>> = { finance: 'finance', scheduling: 'scheduling', identity: 'gateway' };

/** The stream's exchange, which its publisher owns. */
export async function declareExchange(channel: Channel, topology: BusTopology): Promise<void> {
  await channel.assertExchange(topology.exchange, 'topic', { durable: true });
}

/** The consumer's own part: its dead-letter exchange and queue, and its quorum queue bound to the stream's exchange. */
export async function declareQueues(channel: Channel, topology: BusTopology): Promise<void> {
  await channel.assertExchange(topology.deadLetterExchange, 'fanout', { durable: true });
  await channel.assertQueue(topology.deadLetterQueue, { durable: true });
  await channel.bindQueue(topology.deadLetterQueue, topology.deadLetterExchange, '');
  // A quorum queue counts deliveries itself, so a poison message is dead-lettered
  // after deliveryLimit attempts even when the consumer crashes on it each time.
  await channel.assertQueue(topology.queue, { durable: true, arguments: queueArguments(topology) });
  await channel.bindQueue(topology.queue, topology.exchange, '#');
}

/** The arguments of the consumer's queue: the broker's definitions declare it with the same (tools/broker). */
export const queueArguments = (topology: BusTopology) => ({
  'x-queue-type': 'quorum',
  'x-delivery-limit': topology.deliveryLimit,
  'x-dead-letter-exchange': topology.deadLetterExchange,
});

/** Everything both sides rely on, on one channel: for a broker user that may declare it all (guest, in tests). */
export async function declareTopology(channel: Channel, topology: BusTopology): Promise<void> {
  await declareExchange(channel, topology);
  await declareQueues(channel, topology);
}
