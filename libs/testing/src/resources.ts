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
  } finally {
    await connection.close();
  }
}
