import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { connect, type ChannelModel, type ConfirmChannel } from 'amqplib';
import { ConfirmPublisher, ReturnedMessageError } from './confirm-publisher';
import { busTopology } from './topology';
import { TopologyKeeper } from './topology-keeper';

// libs/testing depends on this library, so its broker address is restated here rather than imported.
const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

/** A channel whose buffer is full: it takes a message, asks the caller to wait for 'drain', never confirms. */
class FullChannel extends EventEmitter {
  publish(): boolean {
    return false;
  }
}

describe('ConfirmPublisher', () => {
  it('fails pending and waiting publishes when the channel closes, instead of hanging', async () => {
    const channel = new FullChannel();
    const publisher = new ConfirmPublisher();
    publisher.attach(channel as unknown as ConfirmChannel);

    const tick = () => new Promise((resolve) => setImmediate(resolve));
    const first = publisher.publish('x', 'k', Buffer.from('1'), { messageId: '1' }); // written, awaiting its confirm
    await tick();
    const second = publisher.publish('x', 'k', Buffer.from('2'), { messageId: '2' }); // waiting for 'drain'
    const outcomes = Promise.allSettled([first, second]);
    await tick();
    channel.emit('close');

    const [firstOutcome, secondOutcome] = await outcomes;
    expect(firstOutcome).toMatchObject({
      status: 'rejected',
      reason: { message: expect.stringMatching(/closed before/) },
    });
    expect(secondOutcome).toMatchObject({ status: 'rejected', reason: { message: 'no RabbitMQ channel' } });
    expect(publisher.ready).toBe(false);
  });
});

describe('ConfirmPublisher (RabbitMQ)', () => {
  const topology = busTopology(`t${randomUUID().slice(0, 8)}.bus.`);
  let connection: ChannelModel;
  let keeper: TopologyKeeper;
  let publisher: ConfirmPublisher;

  beforeAll(async () => {
    connection = await connect(AMQP_URL);
    keeper = new TopologyKeeper(topology);
    await keeper.attach(connection);
    publisher = new ConfirmPublisher();
    publisher.attach(await connection.createConfirmChannel());
  });

  afterAll(async () => {
    const channel = await connection.createChannel();
    for (const queue of [topology.queue, topology.deadLetterQueue, `${topology.queue}.routed`]) await channel.deleteQueue(queue);
    for (const exchange of [topology.exchange, topology.deadLetterExchange]) await channel.deleteExchange(exchange);
    await connection.close();
  });

  /** Takes every message waiting in `queue` and returns their ids. */
  async function drain(queue: string): Promise<string[]> {
    const channel = await connection.createChannel();
    const { messageCount } = await channel.checkQueue(queue);
    const ids: string[] = [];
    await new Promise<void>((resolve) => {
      if (messageCount === 0) resolve();
      void channel.consume(queue, (message) => {
        if (message) ids.push(message.properties.messageId as string);
        if (ids.length === messageCount) resolve();
      }, { noAck: true });
    });
    await channel.close();
    return ids;
  }

  const publish = (routingKey: string, messageId: string) =>
    publisher.publish(topology.exchange, routingKey, Buffer.from('{}'), { messageId });

  it('rejects exactly the publishes no queue takes, though the broker confirms them all', async () => {
    // A second exchange with one binding makes some routing keys unroutable while others are queued.
    const setup = await connection.createChannel();
    const routed = `${topology.queue}.routed`;
    await setup.assertExchange(`${topology.exchange}.partial`, 'topic', { durable: false, autoDelete: true });
    await setup.assertQueue(routed, { durable: false });
    await setup.bindQueue(routed, `${topology.exchange}.partial`, 'routed.#');
    await setup.close();

    const messages = Array.from({ length: 200 }, (_, i) => ({ id: randomUUID(), key: i % 3 === 0 ? 'lost.x' : 'routed.x' }));
    const outcomes = await Promise.allSettled(
      messages.map(({ id, key }) =>
        publisher.publish(`${topology.exchange}.partial`, key, Buffer.from('{}'), { messageId: id }),
      ),
    );

    const rejected = messages.filter((_, i) => outcomes[i].status === 'rejected');
    expect(rejected.map((m) => m.key)).toEqual(Array(rejected.length).fill('lost.x'));
    expect(rejected).toHaveLength(67);
    for (const [i, { id }] of messages.entries()) {
      const outcome = outcomes[i];
      if (outcome.status === 'rejected') {
        expect(outcome.reason).toBeInstanceOf(ReturnedMessageError);
        expect(outcome.reason).toMatchObject({ messageId: id, routingKey: 'lost.x', reason: 'NO_ROUTE' });
      }
    }
    expect((await drain(routed)).sort()).toEqual(messages.filter((m) => m.key === 'routed.x').map((m) => m.id).sort());
  });

  it('fails publishes while the queue is deleted, and delivers them once the topology is declared again', async () => {
    const before = randomUUID();
    await publish('transaction.created', before);
    expect(await drain(topology.queue)).toEqual([before]);

    const admin = await connection.createChannel();
    await admin.deleteQueue(topology.queue);
    await admin.close();
    const lost = randomUUID();
    await expect(publish('transaction.created', lost)).rejects.toMatchObject({
      name: 'ReturnedMessageError',
      messageId: lost,
      exchange: topology.exchange,
      routingKey: 'transaction.created',
    });
    expect(publisher.ready).toBe(true); // a return is no channel error: the publisher goes on

    await keeper.declare();
    await publish('transaction.created', lost);
    expect(await drain(topology.queue)).toEqual([lost]);
  });
});
