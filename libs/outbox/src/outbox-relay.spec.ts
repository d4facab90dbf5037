import { randomUUID } from 'node:crypto';
import { connect, type ChannelModel } from 'amqplib';
import { QueryTypes } from 'sequelize';
import pino from 'pino';
import { MEMORY_BUDGETS } from '@libs/contracts';
import { busTopology, ConfirmPublisher, declareTopology, TopologyKeeper } from '@libs/bus';
import { EventSigner, trustedKeyEntry, TrustedEventKeys, type EventRefusal } from '@libs/signing';
import { createScratchDatabase, uniqueNamespace, waitFor, type ScratchDatabase } from '@libs/testing';
import { outboxOnlyMigrations as migrations } from './testing';
import { outboxReturned } from './outbox-metrics';
import { OutboxRelay } from './outbox-relay';

const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const logger = pino({ level: 'silent' });
const signer = new EventSigner('finance', 'the outbox relay spec signing secret');
/** What the consumers believe: finance's key. */
const trust = new TrustedEventKeys(trustedKeyEntry('finance', signer.publicKey));

describe('OutboxRelay (PostgreSQL and RabbitMQ)', () => {
  let db: ScratchDatabase;
  let connection: ChannelModel;
  const topology = busTopology(`${uniqueNamespace()}.`);

  beforeAll(async () => {
    db = await createScratchDatabase('outbox', migrations);
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

  async function relay(log = logger): Promise<OutboxRelay> {
    const keeper = new TopologyKeeper(topology);
    await keeper.attach(connection);
    const publisher = new ConfirmPublisher();
    publisher.attach(await connection.createConfirmChannel());
    return new OutboxRelay(db.sequelize, publisher, keeper, log, { batchSize: 25, pollMs: 20, leaseMs: 30_000, signer });
  }

  /** Rows whose payloads carry `padding` characters of notes besides the event id. */
  async function insertRows(count: number, padding = 0): Promise<string[]> {
    const eventIds = Array.from({ length: count }, () => randomUUID());
    await db.sequelize.query(
      `INSERT INTO outbox (event_id, routing_key, payload, request_id)
       SELECT id, 'transaction.created', jsonb_build_object('eventId', id, 'notes', repeat('n', $2)), 'req' FROM unnest($1::uuid[]) AS id`,
      { bind: [eventIds, padding] },
    );
    return eventIds;
  }

  /** Why the consumers would refuse each message taken from the queue (undefined: they believe it). */
  const refusals: (EventRefusal | undefined)[] = [];

  /** Takes `count` messages from the audit queue and returns their ids. */
  async function consume(count: number): Promise<string[]> {
    const received: string[] = [];
    const consumer = await connection.createChannel();
    await consumer.consume(topology.queue, (message) => {
      if (!message) return;
      const messageId = message.properties.messageId as string;
      received.push(messageId);
      refusals.push(trust.refusalOf('finance', { routingKey: message.fields.routingKey, messageId, body: message.content }, message.properties.headers));
      consumer.ack(message);
    });
    await waitFor(`${count} events on the queue`, async () => (received.length >= count ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 200)); // room for any extra copy to show
    await consumer.close();
    return received;
  }

  const pendingRows = () =>
    db.sequelize.query<{ pending: number }>('SELECT count(*)::int AS pending FROM outbox WHERE published_at IS NULL', {
      type: QueryTypes.SELECT,
    });

  it('publishes every row exactly once even with two relays running at the same time', async () => {
    const eventIds = await insertRows(300);
    const relays = [await relay(), await relay()];
    relays.forEach((r) => r.start());

    const received = await consume(300);
    await Promise.all(relays.map((r) => r.stop()));

    expect(received.sort()).toEqual([...eventIds].sort());
    expect(await pendingRows()).toEqual([{ pending: 0 }]);
    // Each signed by finance's key over the bytes, id and routing key the consumers got.
    expect(new Set(refusals)).toEqual(new Set([undefined]));
  });

  it('keeps returned events unpublished, declares the queue again and delivers each of them once', async () => {
    const returnedBefore = (await outboxReturned.get()).values[0]?.value ?? 0;
    const lines: string[] = [];
    const capturing = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });

    const eventIds = await insertRows(60);
    const running = await relay(capturing); // declares the topology, as a service does on connecting
    const admin = await connection.createChannel();
    await admin.deleteQueue(topology.queue);
    await admin.close();
    running.start();
    try {
      await waitFor('every row to be published', async () => ((await pendingRows())[0].pending === 0 ? true : undefined));
    } finally {
      await running.stop();
    }

    // The queue exists again, declared by the relay, and holds every event once.
    expect((await consume(60)).sort()).toEqual([...eventIds].sort());
    const returned = (await outboxReturned.get()).values[0].value - returnedBefore;
    expect(returned).toBeGreaterThan(0);
    // Each return cost its row exactly one more claim.
    const [{ extraAttempts }] = await db.sequelize.query<{ extraAttempts: number }>(
      'SELECT sum(attempts - 1)::int AS "extraAttempts" FROM outbox WHERE event_id = ANY($1::uuid[])',
      { bind: [eventIds], type: QueryTypes.SELECT },
    );
    expect(extraAttempts).toBe(returned);
    const errors = lines.map((line) => JSON.parse(line)).filter((entry) => entry.level === 50);
    expect(errors).toHaveLength(returned);
    for (const entry of errors) {
      expect(eventIds).toContain(entry.eventId);
      expect(entry).toMatchObject({ routingKey: 'transaction.created', exchange: topology.exchange, reason: 'NO_ROUTE' });
    }
  });

  it('claims rows up to its byte budget, and a row larger than the budget alone', async () => {
    const budget = MEMORY_BUDGETS.relayClaimBytes;
    const third = await insertRows(4, Math.floor(budget / 3)); // two fit a pass, a third does not
    const whole = await insertRows(1, budget + 1);
    const r = await relay();
    expect(await r.relayBatch()).toEqual({ published: 2, returned: 0, more: true });
    expect(await r.relayBatch()).toEqual({ published: 2, returned: 0, more: true });
    expect(await r.relayBatch()).toEqual({ published: 1, returned: 0, more: false });
    expect((await consume(5)).sort()).toEqual([...third, ...whole].sort());
    expect(await pendingRows()).toEqual([{ pending: 0 }]);
  });
});
