import { connect } from 'amqplib';
import { busTopology } from '@libs/bus';
import { AMQP_URL, startDatabaseOutage, startSystem, waitFor, type RunningSystem } from '@libs/testing';
import { api } from './http';
import { allAuditEntries, auditCounts, createTransactions, expectEachOnce, waitForAuditTotal } from './audit-helpers';
import { scrape, total } from './metrics';

const BEFORE = 200;
const WHILE_AUDIT_STALLS = 150;
const AFTER_DELETION = 150;
const MUTATIONS = BEFORE + WHILE_AUDIT_STALLS + AFTER_DELETION;

/**
 * Issue 12 §6: the audit queue is deleted while finance and audit stay connected
 * (an operator's mistake, a policy) and while events wait in it. RabbitMQ had
 * confirmed those events to finance and destroys them with the queue; finance
 * notices the deletion and publishes again what may have been in the queue, so
 * every event arrives once, with no manual step.
 */
describe('the audit queue is deleted while events wait in it', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem();
  }, 90_000);
  afterAll(() => system?.shutdown());

  /** Deletes the audit queue once events wait in it; returns how many the deletion destroyed. */
  async function deleteAuditQueueWithBacklog(): Promise<number> {
    const queue = busTopology(`${system.namespace}.`).queue;
    const connection = await connect(AMQP_URL);
    try {
      const channel = await connection.createChannel();
      await waitFor('events waiting in the audit queue', async () =>
        (await channel.checkQueue(queue)).messageCount > 0 ? true : undefined,
      );
      return (await channel.deleteQueue(queue)).messageCount;
    } finally {
      await connection.close();
    }
  }

  it(`loses and duplicates none of ${MUTATIONS} events, and recovers by itself`, async () => {
    const ids = await createTransactions(system, BEFORE);
    // Audit cannot store while its database is away: it holds what it was given (its
    // prefetch), and the rest waits in the queue.
    const auditDown = await startDatabaseOutage(system.databaseUrl('audit'));
    let destroyed: number;
    try {
      ids.push(...(await createTransactions(system, WHILE_AUDIT_STALLS)));
      destroyed = await deleteAuditQueueWithBacklog();
      ids.push(...(await createTransactions(system, AFTER_DELETION)));
    } finally {
      await auditDown.end();
    }
    expect(destroyed).toBeGreaterThan(0);

    expect(await waitForAuditTotal(system, MUTATIONS)).toBe(MUTATIONS);
    expectEachOnce(await auditCounts(system), ids);
    const verify = await api(system.gatewayUrl, '/api/v1/audit/verify', { key: system.keys.admin });
    // The mutations' entries and the identity area's (the run's demo users and keys).
    expect(verify.body).toEqual({ intact: true, checked: (await allAuditEntries(system)).length, lastHash: expect.stringMatching(/^[0-9a-f]{64}$/), checkpointsChecked: expect.any(Number) });
    const deadLetters = await api(system.gatewayUrl, '/api/v1/audit/dead-letters', { key: system.keys.admin });
    expect(deadLetters.body).toMatchObject({ depth: 0 });

    // Finance put back at least what the deletion destroyed, said so at error, and has nothing left to send.
    const finance = await scrape(system.metricsUrl('finance'));
    expect(total(finance, 'outbox_events_republished_total')).toBeGreaterThanOrEqual(destroyed);
    expect(total(finance, 'outbox_backlog_events')).toBe(0);
    const republishedLogs = system
      .logs('finance')
      .split('\n')
      .filter((line) => line.includes('"republished"'))
      .map((line) => JSON.parse(line));
    expect(republishedLogs).toContainEqual(
      expect.objectContaining({ level: 'error', queue: busTopology(`${system.namespace}.`).queue, republished: expect.any(Number) }),
    );
  }, 300_000);
});
