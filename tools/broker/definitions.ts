import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { brokerPermissions, busTopology, EVENT_CONSUMERS, EVENT_STREAMS, queueArguments } from '@libs/bus';

/** Where the system lives on a broker: a vhost, and the prefix of its names and users (AMQP_NAMESPACE). */
export interface BrokerPlace {
  vhost: string;
  namespace: string;
}

/** The committed definitions without passwords: the Kubernetes example's placeholder (`main.ts --placeholder`). */
export const PLACEHOLDER = join(__dirname, '..', '..', 'deploy', 'kubernetes', 'overlays', 'example', 'secrets', 'broker-definitions.json');

/** The deployed system: the default vhost, names unprefixed. */
export const DEPLOYED: BrokerPlace = { vhost: '/', namespace: '' };

/** The variable holding a service's broker password where users are provisioned: FINANCE_AMQP_PASSWORD. */
export const passwordVariable = (service: string): string => `${service.toUpperCase()}_AMQP_PASSWORD`;

/** The services that have a broker user, each with only its own permissions (libs/bus permissions.ts). */
export const brokerServices = (): string[] => brokerPermissions().map(({ service }) => service);

/**
 * RabbitMQ's `rabbit_password_hashing_sha256`: base64 of a 4-byte salt followed by SHA-256 of salt and password.
 * Made when users are provisioned, so that no hash of a real password is ever committed.
 */
export function passwordHash(password: string, salt = randomBytes(4)): string {
  const digest = createHash('sha256').update(Buffer.concat([salt, Buffer.from(password, 'utf8')])).digest();
  return Buffer.concat([salt, digest]).toString('base64');
}

/**
 * The broker's definitions (RabbitMQ's `load_definitions` / `rabbitmqctl import_definitions` format): the vhost,
 * one user per service with its permissions, and the whole topology, so that every exchange and queue exists from
 * the broker's start and no service needs the right to declare another's. `passwords` by service; a user without
 * one gets an empty hash and cannot log in (the committed placeholder, deploy/kubernetes/overlays/example).
 */
export function brokerDefinitions(place: BrokerPlace, passwords: Readonly<Record<string, string>> = {}) {
  const { vhost, namespace } = place;
  const permissions = brokerPermissions(namespace);
  const topologies = EVENT_STREAMS.flatMap((stream) => EVENT_CONSUMERS.map((consumer) => busTopology(namespace, stream, consumer)));
  const exchange = (name: string, type: 'topic' | 'fanout') => ({
    name,
    vhost,
    type,
    durable: true,
    auto_delete: false,
    internal: false,
    arguments: {},
  });
  const binding = (source: string, destination: string, routingKey: string) => ({
    source,
    vhost,
    destination,
    destination_type: 'queue',
    routing_key: routingKey,
    arguments: {},
  });
  return {
    users: permissions.map(({ service, user }) => ({
      name: user,
      password_hash: passwords[service] === undefined ? '' : passwordHash(passwords[service]),
      hashing_algorithm: 'rabbit_password_hashing_sha256',
      tags: [],
    })),
    vhosts: [{ name: vhost }],
    permissions: permissions.map(({ user, configure, write, read }) => ({ user, vhost, configure, write, read })),
    exchanges: [
      ...[...new Set(topologies.map((topology) => topology.exchange))].map((name) => exchange(name, 'topic')),
      ...topologies.map((topology) => exchange(topology.deadLetterExchange, 'fanout')),
    ],
    queues: topologies.flatMap((topology) => [
      { name: topology.queue, vhost, durable: true, auto_delete: false, arguments: queueArguments(topology) },
      { name: topology.deadLetterQueue, vhost, durable: true, auto_delete: false, arguments: {} },
    ]),
    bindings: topologies.flatMap((topology) => [
      binding(topology.exchange, topology.queue, '#'),
      binding(topology.deadLetterExchange, topology.deadLetterQueue, ''),
    ]),
  };
}

/** The definitions as a file: two-space JSON, newline-terminated. */
export const definitionsFile = (definitions: ReturnType<typeof brokerDefinitions>): string => `${JSON.stringify(definitions, null, 2)}\n`;
