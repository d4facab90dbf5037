import { busTopology, EVENT_CONSUMERS, EVENT_STREAMS, STREAM_PUBLISHERS } from './topology';

/** One service's RabbitMQ user and its permissions in the system's vhost: regular expressions over names. */
export interface BrokerPermission {
  /** The service, whose user is named `<namespace><service>`. */
  service: string;
  user: string;
  configure: string;
  write: string;
  read: string;
}

/**
 * Audit replays dead letters on the stream's exchange (apps/audit dead-letters), so it may write there; it is the
 * one right a service holds on another's exchange (docs/decisions/0021).
 */
const REPLAYS_DEAD_LETTERS: readonly string[] = ['audit'];

interface Names {
  configure: string[];
  write: string[];
  read: string[];
}

/**
 * What each service's broker user may do, from the topology alone (docs/decisions/0021). RabbitMQ checks names, not
 * kinds, against three rights: `configure` declares and deletes, `write` publishes to an exchange or makes a queue a
 * binding's destination, `read` consumes from a queue or makes an exchange a binding's source (and declaring a queue
 * with a dead-letter exchange needs `read` on it). Passive checks need none.
 * - A stream's publisher declares its exchange and publishes on it, keeps each consumer's queue bound to it and
 *   binds it to its deletion witness (libs/bus QueueWitness), an exchange it owns. It reads no queue.
 * - A consumer declares, binds and reads its queues and its dead-letter exchange, and binds its queue to the
 *   stream's exchange. It declares no exchange of a stream.
 * A service that is neither (reference) has no user.
 */
export function brokerPermissions(namespace = ''): BrokerPermission[] {
  const rights = new Map<string, Names>();
  const of = (service: string): Names => {
    const found = rights.get(service) ?? { configure: [], write: [], read: [] };
    rights.set(service, found);
    return found;
  };
  for (const stream of EVENT_STREAMS) {
    for (const consumer of EVENT_CONSUMERS) {
      const topology = busTopology(namespace, stream, consumer);
      const publisher = of(STREAM_PUBLISHERS[stream]);
      publisher.configure.push(topology.exchange, topology.deletionWitness);
      publisher.write.push(topology.exchange, topology.queue);
      publisher.read.push(topology.exchange, topology.deletionWitness);
      const own = of(consumer);
      own.configure.push(topology.queue, topology.deadLetterExchange, topology.deadLetterQueue);
      own.write.push(topology.queue, topology.deadLetterExchange, topology.deadLetterQueue);
      own.read.push(topology.queue, topology.deadLetterExchange, topology.deadLetterQueue, topology.exchange);
      if (REPLAYS_DEAD_LETTERS.includes(consumer)) own.write.push(topology.exchange);
    }
  }
  return [...rights].map(([service, names]) => ({
    service,
    user: `${namespace}${service}`,
    configure: exactly(names.configure),
    write: exactly(names.write),
    read: exactly(names.read),
  }));
}

/** A regular expression matching these names and no other. */
const exactly = (names: string[]): string =>
  `^(${[...new Set(names)].map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`;
