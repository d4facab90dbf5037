import { randomUUID } from 'node:crypto';
import { connect, type ChannelModel } from 'amqplib';
import pino from 'pino';
import { startCancelDroppingProxy } from './cancel-dropping-proxy.fixture';
import { startConsumer } from './consumer';
import { PassiveChecks } from './passive-checks';
import { busTopology, declareTopology } from './topology';
import { TopologyKeeper } from './topology-keeper';
import { watchSubscription } from './watch-subscription';

// libs/testing depends on this library, so its broker address is restated here rather than imported.
const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const BROKER = { host: new URL(AMQP_URL).hostname, port: Number(new URL(AMQP_URL).port) || 5672 };
const WATCH_INTERVAL_MS = 200;

async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * The broker's cancel is the usual sign that a subscription ended; these tests take it away (a relay drops every
 * basic.cancel) and delete the queue under the consumer, declaring it again at once as finance does when its
 * messages come back unroutable. RabbitMQ 3.10 then leaves the consumer attached to the new queue without ever
 * delivering to it. The consumer must notice from the queue's figures alone and consume again.
 */
describe('a consumer whose subscription is lost without a cancel', () => {
  const topology = busTopology(`t${randomUUID().slice(0, 8)}.lost.`);
  const handled = new Set<string>();
  const logs: { level: number; msg: string }[] = [];
  const closers: (() => Promise<unknown>)[] = [];
  let admin: ChannelModel;

  beforeAll(async () => {
    admin = await connect(AMQP_URL);
    const channel = await admin.createChannel();
    await declareTopology(channel, topology);
    await channel.close();
  });

  afterAll(async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    const channel = await admin.createChannel();
    for (const queue of [topology.queue, topology.deadLetterQueue]) await channel.deleteQueue(queue);
    for (const exchange of [topology.exchange, topology.deadLetterExchange]) await channel.deleteExchange(exchange);
    await admin.close();
  });

  /** A consumer with its watch, as the audit service runs it, connected through a relay that loses cancels. */
  async function startWatchedConsumer(idleRenewalMs?: number) {
    const proxy = await startCancelDroppingProxy(BROKER);
    const connection = await connect(`amqp://guest:guest@127.0.0.1:${proxy.port}`);
    const keeper = new TopologyKeeper(topology);
    await keeper.attach(connection);
    const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
    const { consumer, attach } = startConsumer({
      topology: keeper,
      prefetch: 10,
      logger,
      idleRenewalMs,
      handle: async (message) => {
        handled.add(message.properties.messageId as string);
        return 'ack';
      },
    });
    await attach(connection);
    const checks = new PassiveChecks();
    checks.attach(connection);
    const watch = watchSubscription({ checks, queue: topology.queue, consumer, intervalMs: WATCH_INTERVAL_MS });
    closers.push(async () => {
      watch.stop();
      await consumer.stop(1_000);
      await connection.close().catch(() => undefined);
      await proxy.close();
    });
  }

  async function publish(count: number): Promise<string[]> {
    const channel = await admin.createConfirmChannel();
    const ids = Array.from({ length: count }, () => randomUUID());
    for (const id of ids) channel.publish(topology.exchange, 'transaction.created', Buffer.from('{}'), { messageId: id });
    await channel.waitForConfirms();
    await channel.close();
    return ids;
  }

  async function deleteAndDeclareAgainAtOnce(): Promise<void> {
    const channel = await admin.createChannel();
    await channel.deleteQueue(topology.queue);
    await declareTopology(channel, topology);
    await channel.close();
  }

  const consumerCount = async () => {
    const channel = await admin.createChannel();
    try {
      return (await channel.checkQueue(topology.queue)).consumerCount;
    } finally {
      await channel.close();
    }
  };

  const allHandled = (ids: string[]) => async () => ids.every((id) => handled.has(id));

  it('consumes from the queue declared again, and holds one subscription', async () => {
    await startWatchedConsumer();
    await until('the first messages', allHandled(await publish(5)));

    await deleteAndDeclareAgainAtOnce();
    const after = await publish(30);

    await until('every message sent after the deletion', allHandled(after));
    expect(logs).toContainEqual(expect.objectContaining({ level: 40, msg: expect.stringMatching(/consuming again$/) }));
    expect(await consumerCount()).toBe(1);
  }, 60_000);

  it('renews a subscription that received nothing for a while, and still consumes once', async () => {
    await startWatchedConsumer(500);
    await until('an idle subscription renewed', async () => logs.some((line) => line.msg === 'renewed an idle subscription'));

    await until('every message sent after the renewal', allHandled(await publish(10)));
    expect(await consumerCount()).toBe(2); // this consumer and the first test's, each subscribed once
  }, 60_000);
});
