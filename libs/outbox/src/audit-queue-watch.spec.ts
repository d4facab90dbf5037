import { randomUUID } from 'node:crypto';
import { connect, type ChannelModel, type ConfirmChannel } from 'amqplib';
import { QueryTypes } from 'sequelize';
import pino from 'pino';
import { busTopology, ConfirmPublisher, QueueWitness, TopologyKeeper, type PublishOptions } from '@libs/bus';
import { EventSigner } from '@libs/signing';
import { createScratchDatabase, deleteBusTopology, uniqueNamespace, type ScratchDatabase } from '@libs/testing';
import { outboxOnlyMigrations as migrations } from './testing';
import { AuditQueueWatch } from './audit-queue-watch';
import { outboxRepublished } from './outbox-metrics';
import { OutboxRelay } from './outbox-relay';

const signer = new EventSigner('finance', 'the audit queue watch spec signing secret');
const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const silent = pino({ level: 'silent' });

const republishedSoFar = async () => (await outboxRepublished.get()).values[0]?.value ?? 0;

describe('AuditQueueWatch (PostgreSQL and RabbitMQ)', () => {
  let db: ScratchDatabase;
  let connection: ChannelModel;
  let admin: ConfirmChannel;
  const namespace = uniqueNamespace();
  const topology = busTopology(`${namespace}.`);
  const keeper = new TopologyKeeper(topology);
  const logLines: string[] = [];
  /** Two service instances' watches: each with a witness of its own, sharing the database. */
  let watch: AuditQueueWatch;
  let otherWatch: AuditQueueWatch;

  beforeAll(async () => {
    db = await createScratchDatabase('outbox', migrations);
    connection = await connect(AMQP_URL);
    await keeper.attach(connection);
    admin = await connection.createConfirmChannel();
    const instance = (logger: pino.Logger) => {
      const witness = new QueueWitness(topology);
      witness.attach(connection);
      return new AuditQueueWatch(db.sequelize, witness, logger, 60_000);
    };
    watch = instance(pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) }));
    otherWatch = instance(silent);
  });

  afterAll(async () => {
    await connection.close();
    await deleteBusTopology(namespace);
    await db.drop();
  });


  /** Outbox rows, published (their messages confirmed into the queue, where they wait) unless told otherwise. */
  async function events(count: number, { published = true } = {}): Promise<string[]> {
    const eventIds = Array.from({ length: count }, () => randomUUID());
    await db.sequelize.query(
      `INSERT INTO outbox (event_id, routing_key, payload, request_id, published_at)
       SELECT id, 'transaction.created', jsonb_build_object('eventId', id), 'req', CASE WHEN $2 THEN now() END
         FROM unnest($1::uuid[]) AS id`,
      { bind: [eventIds, published] },
    );
    if (published) {
      for (const id of eventIds) admin.publish(topology.exchange, 'transaction.created', Buffer.from('{}'), { messageId: id });
      await admin.waitForConfirms();
    }
    return eventIds;
  }

  const unpublished = async () =>
    (
      await db.sequelize.query<{ event_id: string }>('SELECT event_id FROM outbox WHERE published_at IS NULL ORDER BY event_id', {
        type: QueryTypes.SELECT,
      })
    ).map((row) => row.event_id);

  const watchState = async () =>
    (
      await db.sequelize.query<{ drained_at: Date | null; recovering: boolean }>(
        'SELECT drained_at, recovering FROM outbox_queue_watch WHERE queue = $1',
        { bind: [topology.queue], type: QueryTypes.SELECT },
      )
    )[0];

  /** Takes every message waiting in the queue; returns their ids. */
  async function drainQueue(): Promise<string[]> {
    const ids: string[] = [];
    for (let message = await admin.get(topology.queue, { noAck: true }); message; message = await admin.get(topology.queue, { noAck: true })) {
      ids.push(message.properties.messageId as string);
    }
    return ids;
  }

  /** Deletes the queue and declares it again, as the audit consumer does after its cancel; returns what it destroyed. */
  async function deleteQueueAndDeclareAgain(): Promise<number> {
    const { messageCount } = await admin.deleteQueue(topology.queue);
    await keeper.declare();
    return messageCount;
  }

  it('arms the witness on its first look and puts nothing back', async () => {
    await events(3);
    await watch.check();
    expect(await watchState()).toEqual({ drained_at: null, recovering: false });
    expect(await admin.checkExchange(topology.deletionWitness)).toBeDefined();
    expect(await unpublished()).toEqual([]);
  });

  it('remembers when it last saw the queue drained, and only then', async () => {
    await watch.check();
    expect((await watchState()).drained_at).toBeNull(); // three messages wait
    await drainQueue();
    const before = new Date();
    await watch.check();
    const seenDrained = (await watchState()).drained_at;
    expect(seenDrained?.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1_000);
    await events(1);
    await watch.check();
    expect((await watchState()).drained_at).toEqual(seenDrained);
    await drainQueue();
  });

  it('after a deletion, even one hidden by declaring the queue again, puts back exactly what was published since then, once', async () => {
    await events(5);
    await drainQueue();
    await watch.check(); // drained: these five had left the queue, and stay published
    const waiting = await events(4);
    const republishedBefore = await republishedSoFar();

    expect(await deleteQueueAndDeclareAgain()).toBe(4);
    await watch.check();
    expect(await unpublished()).toEqual([...waiting].sort());
    expect(await republishedSoFar()).toBe(republishedBefore + 4);
    const [report] = logLines.map((line) => JSON.parse(line)).filter((entry) => entry.level === 50);
    expect(report).toMatchObject({ queue: topology.queue, republished: 4, since: expect.any(String) });
    expect(await watchState()).toMatchObject({ recovering: false });

    // The next look finds the witness armed again: nothing more goes back.
    await watch.check();
    expect(await republishedSoFar()).toBe(republishedBefore + 4);

    // The relay sends the four again, to the queue the watch declared and armed.
    const publisher = new ConfirmPublisher();
    publisher.attach(await connection.createConfirmChannel());
    const relay = new OutboxRelay(db.sequelize, publisher, keeper, silent, { batchSize: 50, pollMs: 20, leaseMs: 30_000, signer });
    expect(await relay.relayBatch()).toEqual({ published: 4, returned: 0, more: false });
    expect((await drainQueue()).sort()).toEqual([...waiting].sort());
  });

  it('two instances seeing the same deletion both recover it, and lose nothing', async () => {
    const [first, second] = [watch, otherWatch];
    await first.check(); // drained
    const waiting = await events(6);
    expect(await deleteQueueAndDeclareAgain()).toBe(6);
    await Promise.all([first.check(), second.check()]);
    expect(await unpublished()).toEqual([...waiting].sort());
    expect(await watchState()).toMatchObject({ recovering: false });
    expect(await admin.checkExchange(topology.deletionWitness)).toBeDefined();
    await db.sequelize.query('UPDATE outbox SET published_at = now()');
  });

  it('finishes a recovery that stopped after the witness was armed again', async () => {
    await watch.check(); // drained
    const waiting = await events(2);
    // An instance saw a deletion, armed the witness again and died before putting the rows back:
    // the witness is there, so only the flag tells.
    await db.sequelize.query('UPDATE outbox_queue_watch SET recovering = true');
    await otherWatch.check();
    expect(await unpublished()).toEqual([...waiting].sort());
    expect(await watchState()).toMatchObject({ recovering: false });
    await db.sequelize.query('UPDATE outbox SET published_at = now()');
    await drainQueue();
  });

  it('a publish in flight while rows go back does not mark its row published', async () => {
    await drainQueue();
    await watch.check(); // drained
    const [inFlight] = await events(1, { published: false });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let publishing!: () => void;
    const started = new Promise<void>((resolve) => (publishing = resolve));
    // Holds the publish between the claim and the confirm, where the recovery strikes.
    class HeldPublisher extends ConfirmPublisher {
      override async publish(exchange: string, routingKey: string, body: Buffer, options: PublishOptions, signal?: AbortSignal) {
        publishing();
        await gate;
        return super.publish(exchange, routingKey, body, options, signal);
      }
    }
    const publisher = new HeldPublisher();
    publisher.attach(await connection.createConfirmChannel());
    const relay = new OutboxRelay(db.sequelize, publisher, keeper, silent, { batchSize: 50, pollMs: 20, leaseMs: 30_000, signer });

    const pass = relay.relayBatch();
    await started;
    await deleteQueueAndDeclareAgain();
    await watch.check();
    release();
    expect(await pass).toEqual({ published: 0, returned: 0, more: false });
    expect(await unpublished()).toEqual([inFlight]);
  });
});
