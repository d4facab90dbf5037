import { randomUUID } from 'node:crypto';
import { connect, type Channel, type ChannelModel, type ConsumeMessage } from 'amqplib';
import pino from 'pino';
import { ChannelSettler } from './channel-settler';

// libs/testing depends on this library, so its broker address is restated here rather than imported.
const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

describe('ChannelSettler (RabbitMQ)', () => {
  const queue = `t${randomUUID().slice(0, 8)}.settler`;
  let connection: ChannelModel;
  let channel: Channel;

  beforeAll(async () => {
    connection = await connect(AMQP_URL);
    const admin = await connection.createChannel();
    await admin.assertQueue(queue, { durable: false });
    await admin.close();
  });
  afterAll(async () => {
    const admin = await connection.createChannel();
    await admin.deleteQueue(queue);
    await connection.close();
  });

  /** Publishes `bodies`, then takes them all on a fresh channel, unsettled, in delivery order. */
  async function deliveries(bodies: string[]): Promise<{ settler: ChannelSettler; messages: ConsumeMessage[] }> {
    channel = await connection.createChannel();
    for (const body of bodies) channel.sendToQueue(queue, Buffer.from(body));
    const settler = new ChannelSettler(channel, pino({ level: 'silent' }));
    const messages: ConsumeMessage[] = [];
    await channel.prefetch(bodies.length);
    await new Promise<void>((resolve) => {
      void channel.consume(queue, (message) => {
        if (!message) return;
        settler.delivered(message);
        messages.push(message);
        if (messages.length === bodies.length) resolve();
      });
    });
    return { settler, messages };
  }

  /** What is left on the queue once the consuming channel is closed (its unacked messages go back). */
  async function leftOnQueue(): Promise<string[]> {
    await new Promise((resolve) => setTimeout(resolve, 100)); // the acks of the last turn go out first
    await channel.close();
    const reader = await connection.createChannel();
    const left: string[] = [];
    for (let message = await reader.get(queue, { noAck: true }); message; message = await reader.get(queue, { noAck: true })) {
      left.push(message.content.toString());
    }
    await reader.close();
    return left.sort();
  }

  it('acks the messages handled in one turn, whatever their order', async () => {
    const { settler, messages } = await deliveries(['a', 'b', 'c', 'd']);
    for (const message of [messages[2], messages[0], messages[3], messages[1]]) settler.ack(message);
    expect(await leftOnQueue()).toEqual([]);
  });

  it('acks nothing that was not handled: a message still in hand before acked ones stays unacked', async () => {
    const { settler, messages } = await deliveries(['a', 'b', 'c', 'd']);
    settler.ack(messages[0]);
    settler.ack(messages[2]);
    settler.ack(messages[3]);
    expect(await leftOnQueue()).toEqual(['b']);
  });

  it('puts back a message nacked for retry, and acks the others around it', async () => {
    const { settler, messages } = await deliveries(['a', 'b', 'c']);
    settler.ack(messages[0]);
    settler.nack(messages[1], true);
    settler.ack(messages[2]);
    expect(await leftOnQueue()).toEqual(['b']);
  });
});
