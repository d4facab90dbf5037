import { connect, type ChannelModel, type ConfirmChannel } from 'amqplib';
import { busTopology, declareTopology, type BusTopology } from '@libs/bus';
import { GrpcStatus } from '@libs/grpc';
import { AMQP_URL, deleteBusTopology, uniqueNamespace } from '@libs/testing';
import { DeadLetterQueue } from './dead-letter-queue';

describe('DeadLetterQueue.replay (real RabbitMQ)', () => {
  const namespace = uniqueNamespace();
  let topology: BusTopology;
  let connection: ChannelModel;
  let channel: ConfirmChannel;
  let queue: DeadLetterQueue;

  beforeAll(async () => {
    topology = busTopology(`${namespace}.`);
    connection = await connect(AMQP_URL);
    channel = await connection.createConfirmChannel();
    await declareTopology(channel, topology);
    queue = new DeadLetterQueue(topology);
    queue.attach(connection);
  });
  afterAll(async () => {
    await connection?.close();
    await deleteBusTopology(namespace);
  });

  async function deadLetter(count: number): Promise<void> {
    for (let i = 0; i < count; i += 1) {
      channel.sendToQueue(topology.deadLetterQueue, Buffer.from(`{"n":${i}}`), {
        messageId: `m${i}`,
        headers: { 'x-delivery-count': 5 },
      });
    }
    await channel.waitForConfirms();
  }
  const depth = async (name: string) => (await channel.checkQueue(name)).messageCount;

  afterEach(async () => {
    await channel.purgeQueue(topology.queue);
    await channel.purgeQueue(topology.deadLetterQueue);
  });

  it('moves every message, in batches, back onto the exchange with its id and a fresh delivery count', async () => {
    await deadLetter(250);
    expect(await queue.replay(10_000)).toEqual({ replayed: 250, remaining: 0, stoppedAtDeadline: false });
    // Once the replay's channel is closed, an unacked message would be back in the dead-letter queue.
    expect(await depth(topology.deadLetterQueue)).toBe(0);
    expect(await depth(topology.queue)).toBe(250);
    const first = await channel.get(topology.queue, { noAck: true });
    if (!first) throw new Error('the audit queue is empty');
    expect({ id: first.properties.messageId, body: first.content.toString() }).toEqual({ id: 'm0', body: '{"n":0}' });
    // The quorum queue counts deliveries afresh: none yet (RabbitMQ may show it as 0 or leave the header out).
    expect(first.properties.headers?.['x-delivery-count'] ?? 0).toBe(0);
  });

  it('stops at the limit', async () => {
    await deadLetter(130);
    expect(await queue.replay(120)).toEqual({ replayed: 120, remaining: 10, stoppedAtDeadline: false });
    expect(await depth(topology.deadLetterQueue)).toBe(10);
    expect(await depth(topology.queue)).toBe(120);
  });

  it('stops to answer before the deadline, and says so; every message is in exactly one queue', async () => {
    await deadLetter(3_000);
    // 40 ms of work at most: far too little for 3,000 messages.
    const outcome = await queue.replay(10_000, Date.now() + 50);
    expect(outcome).toEqual({ replayed: expect.any(Number), remaining: 3_000 - outcome.replayed, stoppedAtDeadline: true });
    expect(outcome.replayed).toBeLessThan(3_000);
    expect(await depth(topology.deadLetterQueue)).toBe(3_000 - outcome.replayed);
    expect(await depth(topology.queue)).toBe(outcome.replayed);
  });

  it('leaves every message dead-lettered and answers UNAVAILABLE while the audit queue is missing', async () => {
    await deadLetter(150);
    await channel.deleteQueue(topology.queue);
    try {
      await expect(queue.replay(10_000)).rejects.toMatchObject({ code: GrpcStatus.UNAVAILABLE, message: /queue is missing/ });
      // The first batch went nowhere, so the replay stopped with it: every message is still dead-lettered.
      expect(await depth(topology.deadLetterQueue)).toBe(150);
    } finally {
      await declareTopology(channel, topology);
    }
  });

  it('replays nothing once the caller has stopped waiting', async () => {
    await deadLetter(3);
    expect(await queue.replay(10_000, Date.now())).toEqual({ replayed: 0, remaining: 3, stoppedAtDeadline: true });
    expect(await depth(topology.queue)).toBe(0);
  });
});
