import { auditV1, financeV1 } from '@libs/contracts';
import { callUnary, createClient, outgoingMetadata } from '@libs/grpc';
import { actingAs, startSystem, waitFor, withPgClient, type RunningSystem } from '@libs/testing';
import { provisionTestBroker, type TestBroker } from './test-broker';

const BURSAR = { userId: 'bursar-broker-users', role: 'bursar' };
const ADMIN = { userId: 'admin-broker-users', role: 'admin' };

/*
 * The real finance and audit services, each connected as its own broker user in a vhost of the test's own: a
 * transaction reaches the audit log through finance.events and audit's queue, and finance watches its consumers'
 * queues (their witnesses armed), with nothing more than the permissions libs/bus derives.
 */
describe('finance and audit on their own broker users (real services and RabbitMQ)', () => {
  let system: RunningSystem;
  let broker: TestBroker;

  beforeAll(async () => {
    system = await startSystem({ only: ['finance', 'audit'], notStarted: ['finance', 'audit'], env: { finance: { OUTBOX_QUEUE_CHECK_MS: '200' } } });
    broker = provisionTestBroker(`${system.namespace}.`);
    await system.start('audit', { env: { AMQP_URL: broker.urlOf('audit') } });
    await system.start('finance', { env: { AMQP_URL: broker.urlOf('finance') } });
  }, 120_000);

  afterAll(async () => {
    await system?.shutdown();
    broker?.remove();
  });

  it('carries a transaction from finance to the audit log, and finance watches both consumer queues', async () => {
    const finance = createClient(financeV1.FinanceServiceClient, system.grpcAddress('finance'));
    const audit = createClient(auditV1.AuditServiceClient, system.grpcAddress('audit'));
    try {
      const { transaction } = await callUnary(
        finance.createTransaction.bind(finance),
        financeV1.CreateTransactionRequest.fromPartial({
          input: { date: '2026-09-01', categoryId: '00000000-0000-4000-8000-00000000c001', payee: 'Own broker users', amount: '1000', accountId: '00000000-0000-4000-8000-00000000a001' },
        }),
        { metadata: outgoingMetadata({ acting: actingAs(BURSAR, 'finance', finance.createTransaction) }), timeoutMs: 10_000 },
      );
      const entries = await waitFor('the transaction in the audit log', async () => {
        const found = await callUnary(audit.listEntries.bind(audit), auditV1.ListEntriesRequest.fromPartial({ limit: 10, actorId: BURSAR.userId }), {
          metadata: outgoingMetadata({ acting: actingAs(ADMIN, 'audit', audit.listEntries) }),
          timeoutMs: 10_000,
        });
        return found.entries.length > 0 ? found.entries : undefined;
      });
      expect(entries.map((entry) => [entry.action, entry.entityIds[0]])).toEqual([['transaction.created', transaction?.id]]);
      const watched = await waitFor('both queue witnesses armed', () =>
        withPgClient(system.databaseUrl('finance'), async (db) => {
          const { rows } = await db.query<{ queue: string }>('SELECT queue FROM outbox_queue_watch ORDER BY queue');
          return rows.length === 2 ? rows.map((row) => row.queue) : undefined;
        }),
      );
      expect(watched).toEqual([`${system.namespace}.audit.finance-events`, `${system.namespace}.notifications.finance-events`]);
    } finally {
      finance.close();
      audit.close();
    }
  });
});
