import { randomUUID } from 'node:crypto';
import { connect, type ChannelModel } from 'amqplib';
import { QueueWitness } from './queue-witness';
import { busTopology } from './topology';
import { TopologyKeeper } from './topology-keeper';

// libs/testing depends on this library, so its broker address is restated here rather than imported.
const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

describe('QueueWitness (RabbitMQ)', () => {
  const topology = busTopology(`t${randomUUID().slice(0, 8)}.witness.`);
  let connection: ChannelModel;
  let witness: QueueWitness;

  beforeAll(async () => {
    connection = await connect(AMQP_URL);
    witness = new QueueWitness(topology);
    witness.attach(connection);
  });

  afterAll(async () => {
    const channel = await connection.createChannel();
    for (const queue of [topology.queue, topology.deadLetterQueue]) await channel.deleteQueue(queue);
    for (const exchange of [topology.exchange, topology.deadLetterExchange, topology.deletionWitness]) {
      await channel.deleteExchange(exchange);
    }
    await connection.close();
  });

  async function admin<T>(work: (channel: Awaited<ReturnType<ChannelModel['createConfirmChannel']>>) => Promise<T>) {
    const channel = await connection.createConfirmChannel();
    try {
      return await work(channel);
    } finally {
      await channel.close();
    }
  }

  it('counts the messages ready in the armed queue', async () => {
    await witness.arm();
    expect(await witness.observe()).toEqual({ deleted: false, ready: 0 });
    await admin(async (channel) => {
      for (let i = 0; i < 3; i += 1) channel.publish(topology.exchange, 'transaction.created', Buffer.from('{}'));
      await channel.waitForConfirms();
    });
    expect(await witness.observe()).toEqual({ deleted: false, ready: 3 });
  });

  it('reports a deletion although the queue was declared again since, until it is armed again', async () => {
    expect(await admin((channel) => channel.deleteQueue(topology.queue))).toEqual({ messageCount: 3 });
    // What the audit consumer does after its cancel, and any (re)connect: the queue is back, empty.
    const keeper = new TopologyKeeper(topology);
    await keeper.attach(connection);
    expect(await admin((channel) => channel.checkQueue(topology.queue))).toMatchObject({ messageCount: 0 });

    expect(await witness.observe()).toEqual({ deleted: true });
    expect(await witness.observe()).toEqual({ deleted: true });
    await witness.arm();
    expect(await witness.observe()).toEqual({ deleted: false, ready: 0 });
  });

  it('reports a deletion while the queue is missing, and looks again on a new channel afterwards', async () => {
    await admin((channel) => channel.deleteQueue(topology.queue));
    expect(await witness.observe()).toEqual({ deleted: true });
    await witness.arm();
    expect(await witness.observe()).toEqual({ deleted: false, ready: 0 });
  });
});
