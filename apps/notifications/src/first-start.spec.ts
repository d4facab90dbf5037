import { connect } from 'amqplib';
import { busTopology } from '@libs/bus';
import { financeV1 } from '@libs/contracts';
import { callUnary, createClient, outgoingMetadata } from '@libs/grpc';
import { actingAs, AMQP_URL, startSystem, waitFor, withPgClient, type RunningSystem } from '@libs/testing';
import { actorOf, apiFor, verifyingReceiver, type NotificationsApi } from './test-webhooks';

/**
 * Notifications' queues are declared by the producers too when missing (consumerTopologies; connected as guest, as
 * here; deployed, the broker's definitions declare them) and watched by their outbox: an event
 * committed before notifications ever ran, or destroyed with its deleted queue, still reaches it once it runs.
 */
describe('events committed while notifications is not running (real finance, notifications and RabbitMQ)', () => {
  let system: RunningSystem;
  let bursar: NotificationsApi | undefined;
  const actor = actorOf('bursar');
  const queue = () => busTopology(`${system.namespace}.`, 'finance', 'notifications').queue;

  beforeAll(async () => {
    system = await startSystem({
      only: ['finance', 'notifications'],
      notStarted: ['notifications'],
      env: { finance: { OUTBOX_QUEUE_CHECK_MS: '200' } },
    });
  }, 90_000);
  afterAll(async () => {
    bursar?.close();
    await system?.shutdown();
  });

  async function recordTransaction(): Promise<string> {
    const client = createClient(financeV1.FinanceServiceClient, system.grpcAddress('finance'));
    try {
      const { transaction } = await callUnary(
        client.createTransaction.bind(client),
        financeV1.CreateTransactionRequest.fromPartial({
          input: { date: '2026-09-01', categoryId: '00000000-0000-4000-8000-00000000c001', payee: 'Before first start', amount: '1000', accountId: '00000000-0000-4000-8000-00000000a001' },
        }),
        { metadata: outgoingMetadata({ acting: actingAs(actor, 'finance', client.createTransaction) }), timeoutMs: 10_000 },
      );
      const id = transaction?.id ?? '';
      await waitFor('the event to be published', () =>
        withPgClient(system.databaseUrl('finance'), async (client) => {
          const { rows } = await client.query("SELECT 1 FROM outbox WHERE payload->'entityIds' ? $1 AND published_at IS NOT NULL", [id]);
          return rows.length > 0 ? true : undefined;
        }),
      );
      return id;
    } finally {
      client.close();
    }
  }

  const waiting = async () => {
    const connection = await connect(AMQP_URL);
    try {
      return (await (await connection.createChannel()).checkQueue(queue())).messageCount;
    } finally {
      await connection.close();
    }
  };

  it('an event committed before notifications first starts waits in its queue and is stored once it starts', async () => {
    const id = await recordTransaction();
    expect(await waiting()).toBe(1);
    await system.start('notifications');
    bursar = apiFor(system, actor);

    let secret = '';
    const receiver = await verifyingReceiver(() => [secret]);
    try {
      const created = await bursar.createEndpoint({ url: receiver.url, eventTypes: ['transaction.created'] });
      secret = created.secret;
      // Stored before this endpoint existed: a recovery sends it, which only a stored event can be.
      await waitFor('notifications to store the event', async () =>
        (await bursar?.recoverEvents(created.endpoint?.id ?? '', new Date(Date.now() - 3_600_000).toISOString()))?.queued ? true : undefined,
      );
      const [delivery] = await waitFor('the delivery', async () => (receiver.verified.length > 0 ? receiver.verified : undefined));
      expect(delivery).toMatchObject({ type: 'transaction.created', data: { object: { id } } });
    } finally {
      await receiver.close();
    }
  });

  it("a notifications queue deleted while it held an event: finance's watch publishes the event again, and it arrives", async () => {
    let secret = '';
    const receiver = await verifyingReceiver(() => [secret]);
    try {
      const created = await (bursar as NotificationsApi).createEndpoint({ url: receiver.url, eventTypes: ['transaction.created'] });
      secret = created.secret;
      expect(await system.stop('notifications')).toBe(0);
      const id = await recordTransaction();
      expect(await waiting()).toBe(1);
      const connection = await connect(AMQP_URL);
      await (await connection.createChannel()).deleteQueue(queue());
      await connection.close();

      await waitFor('finance to notice the deletion', async () => (/a consumer queue was deleted/.test(system.logs('finance')) ? true : undefined));
      await system.start('notifications');
      const [delivery] = await waitFor('the delivery', async () => (receiver.verified.length > 0 ? receiver.verified : undefined), 30_000);
      expect(delivery).toMatchObject({ type: 'transaction.created', data: { object: { id } } });
    } finally {
      await receiver.close();
    }
  });
});
