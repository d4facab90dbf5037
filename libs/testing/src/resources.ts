import { randomBytes, randomInt } from 'node:crypto';
import { createServer } from 'node:net';
import { connect } from 'amqplib';
import { Client } from 'pg';
import { busTopology, EVENT_STREAMS } from '@libs/bus';
import { GRPC_SERVICE_NAMES } from '@libs/topology';

export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';
export const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

/** A name no other test run uses: it prefixes databases and RabbitMQ names so runs never meet. */
export const uniqueNamespace = (): string => `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

/**
 * Ports below the kernel's ephemeral range (32768-60999 on Linux): a port the kernel hands out for
 * `listen(0)` is also what it hands out for outgoing connections, and a test run makes thousands of
 * those, so a port found free that way is often taken again before the service binds it.
 */
const TEST_PORTS = { first: 20_000, count: 12_000 };

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * Ports handed out by this module (Jest loads it once per test file). A port found free stays free until its
 * service binds it, so a system's dozen or more draws could otherwise give two services the same port (a birthday
 * collision: about 1 in 130 systems), and the later one would fail to start.
 */
const handedOut = new Set<number>();

/** A port nothing listens on and not handed out before (handedOut), drawn at random below the ephemeral range. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 100; tries += 1) {
    const port = TEST_PORTS.first + randomInt(TEST_PORTS.count);
    if (handedOut.has(port) || !(await isFree(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error('no free port found below the ephemeral range');
}

const STALE_AFTER_MS = 6 * 60 * 60 * 1000;

/**
 * Drops databases left behind by test runs that were killed before cleaning up.
 * A namespace starts with its creation time in base 36, so age is in the name.
 */
export async function dropStaleTestDatabases(): Promise<void> {
  const client = new Client({ connectionString: `${POSTGRES_URL}/postgres` });
  await client.connect();
  let stale: string[];
  try {
    const { rows } = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname ~ '^t[0-9a-z]{8}[0-9a-f]{6}_[a-z]+$'",
    );
    stale = rows
      .map((row) => row.datname)
      .filter((name) => Date.now() - parseInt(name.slice(1, 9), 36) > STALE_AFTER_MS);
  } finally {
    await client.end();
  }
  await dropDatabases(stale);
}

export async function dropDatabases(names: string[]): Promise<void> {
  const client = new Client({ connectionString: `${POSTGRES_URL}/postgres` });
  await client.connect();
  try {
    for (const name of names) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export async function deleteBusTopology(namespace: string): Promise<void> {
  const connection = await connect(AMQP_URL);
  try {
    const channel = await connection.createChannel();
    // Every declared service's queues, whether it consumes or not: deleting what does not exist is no error.
    for (const [stream, consumer] of EVENT_STREAMS.flatMap((stream) => GRPC_SERVICE_NAMES.map((name) => [stream, name] as const))) {
      const topology = busTopology(`${namespace}.`, stream, consumer);
      await channel.deleteQueue(topology.queue);
      await channel.deleteQueue(topology.deadLetterQueue);
      await channel.deleteExchange(topology.exchange);
      await channel.deleteExchange(topology.deadLetterExchange);
      await channel.deleteExchange(topology.deletionWitness);
    }
  } finally {
    await connection.close();
  }
}
