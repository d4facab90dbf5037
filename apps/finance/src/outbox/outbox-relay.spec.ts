import { randomUUID } from 'node:crypto';
import { connect, type ChannelModel } from 'amqplib';
import pino from 'pino';
import { busTopology, ConfirmPublisher, declareTopology } from '@libs/bus';
import { createScratchDatabase, uniqueNamespace, waitFor, type ScratchDatabase } from '@libs/testing';
import { migrations } from '../migrations';
import { OutboxRelay } from './outbox-relay';

const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const logger = pino({ level: 'silent' });

describe('OutboxRelay (PostgreSQL and RabbitMQ)', () => {
  let db: ScratchDatabase;
  let connection: ChannelModel;
  const topology = busTopology(`${uniqueNamespace()}.`);

  beforeAll(async () => {
    db = await createScratchDatabase('finance', migrations);
    connection = await connect(AMQP_URL);
    const channel = await connection.createChannel();
    await declareTopology(channel, topology);
    await channel.close();
  });

  afterAll(async () => {
    const channel = await connection.createChannel();
    for (const queue of [topology.queue, topology.deadLetterQueue]) await channel.deleteQueue(queue);
    for (const exchange of [topology.exchange, topology.deadLetterExchange]) await channel.deleteExchange(exchange);
    await connection.close();
    await db.drop();
  });

  async function relay(): Promise<OutboxRelay> {
    const publisher = new ConfirmPublisher();
    publisher.attach(await connection.createConfirmChannel());
    return new OutboxRelay(db.sequelize, publisher, topology, logger, { batchSize: 25, pollMs: 20, leaseMs: 30_000 });
  }

  it('publishes every row exactly once even with two relays running at the same time', async () => {
    const eventIds = Array.from({ length: 300 }, () => randomUUID());
    await db.sequelize.query(
      `INSERT INTO outbox (event_id, routing_key, payload, request_id)
       SELECT id, 'transaction.created', jsonb_build_object('eventId', id), 'req' FROM unnest($1::uuid[]) AS id`,
      { bind: [eventIds] },
    );
    const relays = [await relay(), await relay()];
    relays.forEach((r) => r.start());

    const received: string[] = [];
    const consumer = await connection.createChannel();
    await consumer.consume(topology.queue, (message) => {
      if (!message) return;
      received.push(message.properties.messageId as string);
      consumer.ack(message);
    });
    await waitFor('all 300 events on the queue', async () => (received.length >= 300 ? true : undefined));
    await Promise.all(relays.map((r) => r.stop()));
    await new Promise((resolve) => setTimeout(resolve, 200));

    expect(received.sort()).toEqual([...eventIds].sort());
    const [{ pending }] = await db.sequelize.query<{ pending: number }>(
      'SELECT count(*)::int AS pending FROM outbox WHERE published_at IS NULL',
      { type: 'SELECT' as never },
    );
    expect(pending).toBe(0);
    await consumer.close();
  });
});
