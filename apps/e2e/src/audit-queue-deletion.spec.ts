import { connect } from 'amqplib';
import { busTopology } from '@libs/bus';
import { AMQP_URL, startSystem, waitFor, type RunningSystem } from '@libs/testing';
import { api } from './http';
import { auditCounts, createTransactions, expectEachOnce, waitForAuditTotal } from './audit-helpers';
import { scrape, total } from './metrics';

const MUTATIONS = 500;
const DELETE_AFTER = 200;

/**
 * Issue 12 §6: the audit queue is deleted while finance and audit stay connected
 * (an operator's mistake, a policy). Finance's publishes come back as unroutable
 * (mandatory) instead of being confirmed into nowhere, audit sees its consumer
 * cancelled, and both declare the topology again: every event arrives once, with
 * no manual step.
 */
describe('the audit queue is deleted mid-run', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem();
  }, 90_000);
  afterAll(() => system?.shutdown());

  /**
   * Deletes the queue at a moment it holds no message waiting for delivery. Deleting a
   * queue destroys what waits in it, which RabbitMQ had already confirmed to finance: no
   * publisher can notice that (docs/AUDIT.md). What the consumer holds is still stored.
   */
  async function deleteAuditQueue(): Promise<number> {
    const queue = busTopology(`${system.namespace}.`).queue;
    const connection = await connect(AMQP_URL);
    try {
      const channel = await connection.createChannel();
      await waitFor('a moment the audit queue has no ready message', async () =>
        (await channel.checkQueue(queue)).messageCount === 0 ? true : undefined,
      );
      return (await channel.deleteQueue(queue)).messageCount;
    } finally {
      await connection.close();
    }
  }

  it(`loses and duplicates none of ${MUTATIONS} events, and recovers by itself`, async () => {
    let deletion: Promise<number> | undefined;
    const ids = await createTransactions(system, MUTATIONS, {
      onProgress: (done) => {
        if (done === DELETE_AFTER) deletion = deleteAuditQueue();
      },
    });
    expect(await deletion).toBe(0);

    expect(await waitForAuditTotal(system, MUTATIONS)).toBe(MUTATIONS);
    expectEachOnce(await auditCounts(system), ids);
    const verify = await api(system.gatewayUrl, '/api/v1/audit/verify', { key: system.keys.admin });
    expect(verify.body).toEqual({ intact: true, checked: MUTATIONS, lastHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    // The deletion really sent events down the return path, and nothing is left waiting in the outbox.
    const finance = await scrape(system.metricsUrl('finance'));
    expect(total(finance, 'outbox_events_returned_total')).toBeGreaterThan(0);
    expect(total(finance, 'outbox_backlog_events')).toBe(0);
    const returnedLogs = system
      .logs('finance')
      .split('\n')
      .filter((line) => line.includes('"routingKey"'))
      .map((line) => JSON.parse(line));
    expect(returnedLogs).toContainEqual(
      expect.objectContaining({ level: 'error', routingKey: 'transaction.created', eventId: expect.stringMatching(/^[0-9a-f-]{36}$/) }),
    );
  }, 240_000);
});
