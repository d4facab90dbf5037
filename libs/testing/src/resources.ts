import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { connect } from 'amqplib';
import { Client } from 'pg';
import { busTopology } from '@libs/bus';

export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';
export const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

/** A name no other test run uses: it prefixes databases and RabbitMQ names so runs never meet. */
export const uniqueNamespace = (): string => `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
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
  const topology = busTopology(`${namespace}.`);
  const connection = await connect(AMQP_URL);
  try {
    const channel = await connection.createChannel();
    await channel.deleteQueue(topology.queue);
    await channel.deleteQueue(topology.deadLetterQueue);
    await channel.deleteExchange(topology.exchange);
    await channel.deleteExchange(topology.deadLetterExchange);
    await channel.deleteExchange(topology.deletionWitness);
  } finally {
    await connection.close();
  }
}
