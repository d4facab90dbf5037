import { connect, type ChannelModel } from 'amqplib';
import { busTopology, QueueWitness, TopologyKeeper } from '@libs/bus';
import { uniqueNamespace } from '@libs/testing';
import { provisionTestBroker, type TestBroker } from './test-broker';

/*
 * The per-service users on the real broker, provisioned in a vhost of this test's own (guest and every other test
 * keep theirs) and removed afterwards: finance may publish on its own exchange and keep its consumers' queues bound
 * and watched, but not publish on scheduling's exchange nor read audit's queues.
 */
describe('the broker users (RabbitMQ)', () => {
  const namespace = `${uniqueNamespace()}.`;
  let broker: TestBroker;
  const connections: ChannelModel[] = [];

  const connectAs = async (service: string): Promise<ChannelModel> => {
    const connection = await connect(broker.urlOf(service));
    connection.on('error', () => undefined);
    connections.push(connection);
    return connection;
  };

  type Confirming = Awaited<ReturnType<ChannelModel['createConfirmChannel']>>;

  /** 'ok', or the code of the channel close with which RabbitMQ refused `work` (403 ACCESS_REFUSED). */
  const outcome = async (connection: ChannelModel, work: (channel: Confirming) => Promise<unknown>) => {
    const channel = await connection.createConfirmChannel();
    let refusal: number | undefined;
    channel.on('error', (error: { code?: number }) => (refusal ??= error.code));
    try {
      await work(channel);
      await channel.close();
      return 'ok';
    } catch (error) {
      return refusal ?? (error as { code?: number }).code;
    }
  };

  /** Publishes one event and waits for the broker's confirm (or the close that refuses it). */
  const publish = (exchange: string) => (channel: Confirming) =>
    new Promise<void>((resolve, reject) =>
      channel.publish(exchange, 'transaction.created', Buffer.from('{}'), { persistent: true }, (error) => (error ? reject(error) : resolve())),
    );

  beforeAll(() => {
    broker = provisionTestBroker(namespace);
  });

  afterAll(async () => {
    for (const connection of connections) await connection.close().catch(() => undefined);
    broker?.remove();
  });

  it('lets finance publish on its own exchange, into every consumer queue the definitions declared', async () => {
    const finance = await connectAs('finance');
    const audit = await connectAs('audit');
    expect(await outcome(finance, publish(busTopology(namespace, 'finance').exchange))).toBe('ok');
    const channel = await audit.createChannel();
    const message = await channel.get(busTopology(namespace, 'finance').queue, { noAck: true });
    expect(message && message.fields.routingKey).toBe('transaction.created');
  });

  it('refuses finance publishing on scheduling’s exchange', async () => {
    const finance = await connectAs('finance');
    expect(await outcome(finance, publish(busTopology(namespace, 'scheduling').exchange))).toBe(403);
  });

  it.each(['finance', 'scheduling', 'identity'] as const)('refuses finance reading audit’s %s queue or its dead letters', async (stream) => {
    const finance = await connectAs('finance');
    const topology = busTopology(namespace, stream);
    expect(await outcome(finance, (channel) => channel.consume(topology.queue, () => undefined))).toBe(403);
    expect(await outcome(finance, (channel) => channel.get(topology.queue))).toBe(403);
    expect(await outcome(finance, (channel) => channel.get(topology.deadLetterQueue))).toBe(403);
    expect(await outcome(finance, (channel) => channel.deleteQueue(topology.queue))).toBe(403);
  });

  it('lets finance keep its consumers’ queues bound and watch them, with passive checks and its witness', async () => {
    const finance = await connectAs('finance');
    const [audit, notifications] = ['audit', 'notifications'].map((consumer) => busTopology(namespace, 'finance', consumer));
    await new TopologyKeeper(audit, [notifications], 'publisher').attach(finance);
    const witness = new QueueWitness(audit);
    witness.attach(finance);
    await witness.arm();
    expect(await witness.observe()).toEqual({ deleted: false, ready: 0 });
  });

  it('lets audit declare and read its own queues, but neither delete a stream’s exchange nor read notifications’ queues', async () => {
    const audit = await connectAs('audit');
    const topology = busTopology(namespace, 'scheduling');
    await new TopologyKeeper(topology).attach(audit);
    expect(await outcome(audit, (channel) => channel.consume(topology.queue, () => undefined))).toBe('ok');
    expect(await outcome(audit, (channel) => channel.deleteExchange(topology.exchange))).toBe(403);
    expect(await outcome(audit, (channel) => channel.get(busTopology(namespace, 'scheduling', 'notifications').queue))).toBe(403);
  });

  it('lets audit replay dead letters on a stream’s exchange, which notifications may not publish on', async () => {
    const exchange = busTopology(namespace, 'finance').exchange;
    expect(await outcome(await connectAs('audit'), publish(exchange))).toBe('ok');
    expect(await outcome(await connectAs('notifications'), publish(exchange))).toBe(403);
  });
});
