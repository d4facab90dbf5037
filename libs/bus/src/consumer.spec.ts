import { randomUUID } from 'node:crypto';
import { connect, type ChannelModel } from 'amqplib';
import pino from 'pino';
import { startConsumer, type Consumer } from './consumer';
import { busTopology } from './topology';
import { TopologyKeeper } from './topology-keeper';

// libs/testing depends on this library, so its broker address is restated here rather than imported.
const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('startConsumer (RabbitMQ)', () => {
  const topology = busTopology(`t${randomUUID().slice(0, 8)}.consumer.`);
  const handled: string[] = [];
  const logs: { level: number; msg: string }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  let connection: ChannelModel;
  let consumer: Consumer;

  beforeAll(async () => {
    connection = await connect(AMQP_URL);
    const keeper = new TopologyKeeper(topology);
    await keeper.attach(connection);
    const started = startConsumer({
      topology: keeper,
      prefetch: 10,
      logger,
      handle: async (message) => {
        handled.push(message.properties.messageId as string);
        return 'ack';
      },
    });
    consumer = started.consumer;
    await started.attach(connection);
  });

  afterAll(async () => {
    await consumer.stop(1_000);
    const channel = await connection.createChannel();
    for (const queue of [topology.queue, topology.deadLetterQueue]) await channel.deleteQueue(queue);
    for (const exchange of [topology.exchange, topology.deadLetterExchange]) await channel.deleteExchange(exchange);
    await connection.close();
  });

  /** Runs `work` on a channel of its own, which a failed operation may close without harm. */
  async function withChannel<T>(work: (channel: Awaited<ReturnType<ChannelModel['createChannel']>>) => Promise<T>) {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    try {
      return await work(channel);
    } finally {
      await channel.close().catch(() => undefined);
    }
  }

  const consumers = () =>
    withChannel(async (channel) => (await channel.checkQueue(topology.queue)).consumerCount).catch(() => 0);

  /** Publishes one message, mandatory, and waits until the consumer handled it. */
  async function delivered(): Promise<void> {
    const id = randomUUID();
    const channel = await connection.createConfirmChannel();
    let returned = false;
    channel.on('return', () => (returned = true));
    channel.publish(topology.exchange, 'transaction.created', Buffer.from('{}'), { messageId: id, mandatory: true });
    await channel.waitForConfirms();
    await channel.close();
    expect(returned).toBe(false);
    await until(`message ${id} to be handled`, async () => (handled.includes(id) ? true : undefined));
  }

  it('consumes again on a new channel when RabbitMQ counts no consumer on its queue, and holds one subscription', async () => {
    await delivered();
    consumer.observe({ ready: 0, consumers: 0 });
    await until('one consumer again', async () => ((await consumers()) === 1 && logs.some((l) => l.msg === 'consuming again') ? true : undefined));
    await delivered();
    expect(await consumers()).toBe(1);
    logs.length = 0; // the tests below look for their own lines
  });

  it('declares the topology again and consumes again after its queue is deleted', async () => {
    await delivered();
    await withChannel((channel) => channel.deleteQueue(topology.queue));

    await until('a consumer on the declared-again queue', async () => ((await consumers()) === 1 ? true : undefined));
    await delivered();
    expect(logs).toContainEqual(expect.objectContaining({ level: 40, msg: expect.stringMatching(/cancelled the consumer/) }));
    expect(logs).toContainEqual(expect.objectContaining({ level: 30, msg: 'consuming again' }));
  });

  it('keeps trying, with backoff, while the queue cannot be declared, and consumes once it can', async () => {
    // Re-created by hand as a classic queue: declaring the quorum queue fails until it is gone.
    await withChannel(async (channel) => {
      await channel.deleteQueue(topology.queue);
      await channel.assertQueue(topology.queue, { durable: false });
    });
    await until('two refused declarations', async () =>
      logs.filter((entry) => entry.msg === 'cannot consume again yet; retrying').length >= 2 ? true : undefined,
    );
    await withChannel((channel) => channel.deleteQueue(topology.queue));

    await until('a consumer on the declared-again queue', async () => ((await consumers()) === 1 ? true : undefined));
    await delivered();
  });
});
