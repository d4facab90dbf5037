import { Client } from 'pg';
import { AMQP_URL, startSystem, startTcpProxy, waitFor, type RunningSystem, type TcpProxy } from '@libs/testing';
import {
  allAuditEntries,
  auditCounts,
  createTransactions,
  expectEachOnce,
  waitForAuditTotal,
  waitForFinance,
} from './audit-helpers';
import { api } from './http';

async function queryCount(url: string, sql: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(sql);
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}

/**
 * Issue 4 §8: the audit log loses nothing and duplicates nothing when the broker
 * connection, the audit service, the finance service or the audit database fails.
 * The scenarios share one system and run in order; `total` is the number of
 * mutations made so far, which the audit log must match exactly after each one.
 */
describe('audit delivery under faults', () => {
  let system: RunningSystem;
  let broker: TcpProxy;
  let database: TcpProxy | undefined;
  let total = 0;
  const unpublished = () =>
    queryCount(system.databaseUrl('finance'), 'SELECT count(*) AS n FROM outbox WHERE published_at IS NULL');
  // The transactions' entries: the gateway's identity area adds its own (the run's demo users and keys).
  const stored = () => queryCount(system.databaseUrl('audit'), "SELECT count(*) AS n FROM audit_entries WHERE entity_type = 'transaction'");

  beforeAll(async () => {
    broker = await startTcpProxy(AMQP_URL);
    const viaProxy = { AMQP_URL: broker.proxiedUrl(AMQP_URL) };
    system = await startSystem({ env: { finance: viaProxy, audit: viaProxy } });
  }, 90_000);
  afterAll(async () => {
    await system?.shutdown();
    await broker?.close();
    await database?.close();
  });

  it('(a) the broker connection is cut during 500 mutations: all succeed, and exactly 500 entries arrive', async () => {
    const duringCut = await createTransactions(system, 400, {
      onProgress: (done) => done === 100 && broker.cut(),
    });
    // Nothing can have been published since the cut: the events wait in the outbox.
    expect(await unpublished()).toBeGreaterThanOrEqual(250);
    expect(await stored()).toBeLessThanOrEqual(150);
    broker.restore();
    const afterCut = await createTransactions(system, 100);
    total += 500;

    expect(await waitForAuditTotal(system, total)).toBe(total);
    expectEachOnce(await auditCounts(system), [...duringCut, ...afterCut]);
    expect(await unpublished()).toBe(0);
  }, 180_000);

  it('(b) the audit service is killed with SIGKILL mid-stream and restarted: no loss, no duplicates', async () => {
    const posting = createTransactions(system, 300);
    await waitFor('the audit service to be storing the new events', async () =>
      (await stored()) >= total + 30 ? true : undefined,
    );
    expect(await system.stop('audit', 'SIGKILL')).toBeNull();
    const storedAtKill = await stored();
    const ids = await posting;
    total += 300;
    expect(storedAtKill).toBeLessThan(total);

    await system.start('audit', { env: { AMQP_URL: broker.proxiedUrl(AMQP_URL) } });
    expect(await waitForAuditTotal(system, total)).toBe(total);
    expectEachOnce(await auditCounts(system), ids);
  }, 180_000);

  it('(c) finance is killed after commit and before publish: the relay publishes on restart, once', async () => {
    const amqp = { AMQP_URL: broker.proxiedUrl(AMQP_URL) };
    expect(await system.stop('finance')).toBe(0);
    await system.start('finance', { env: { ...amqp, OUTBOX_RELAY_ENABLED: 'false' } });
    await waitForFinance(system);
    const ids = await createTransactions(system, 50);
    total += 50;
    expect(await unpublished()).toBe(50);
    expect(await stored()).toBe(total - 50);

    expect(await system.stop('finance', 'SIGKILL')).toBeNull();
    await system.start('finance', { env: amqp });
    expect(await waitForAuditTotal(system, total)).toBe(total);
    expectEachOnce(await auditCounts(system), ids);
    expect(await unpublished()).toBe(0);
  }, 180_000);

  it('(e) the audit database is unreachable for longer than the delivery limit lasts: no event is dead-lettered', async () => {
    const auditDb = system.databaseUrl('audit');
    database = await startTcpProxy(auditDb);
    expect(await system.stop('audit')).toBe(0);
    await system.start('audit', { env: { AMQP_URL: broker.proxiedUrl(AMQP_URL), DATABASE_URL: database.proxiedUrl(auditDb) } });
    database.cut();
    const ids = await createTransactions(system, 40);
    total += 40;
    // The queue dead-letters a message after 5 deliveries; the service must have tried more often than that.
    await waitFor('an event to be retried more than 5 times', async () =>
      /"attempt":6,.*cannot store the event yet/.test(system.logs('audit')) ? true : undefined,
    30_000);
    const reading = await api(system.gatewayUrl, '/api/v1/audit', { key: system.keys.admin });
    expect(reading.status).toBe(503);
    database.restore();

    expect(await waitForAuditTotal(system, total)).toBe(total);
    expectEachOnce(await auditCounts(system), ids);
    const deadLetters = await api(system.gatewayUrl, '/api/v1/audit/dead-letters', { key: system.keys.admin });
    expect(deadLetters.body).toEqual({ queue: `${system.namespace}.audit.finance-events.dead`, depth: 0 });
  }, 180_000);

  it('(d) an audit row altered in the database: /verify names it', async () => {
    const intact = await api(system.gatewayUrl, '/api/v1/audit/verify', { key: system.keys.admin });
    // The transactions' entries and the identity area's (the run's demo users and keys).
    const everyEntry = (await allAuditEntries(system)).length;
    expect(everyEntry).toBeGreaterThanOrEqual(total);
    expect(intact.body).toEqual({ intact: true, checked: everyEntry, lastHash: expect.stringMatching(/^[0-9a-f]{64}$/), checkpointsChecked: expect.any(Number) });

    const victim = (await allAuditEntries(system)).find((entry) => entry.sequence === 123);
    const client = new Client({ connectionString: system.databaseUrl('audit') });
    await client.connect();
    try {
      await client.query(`UPDATE audit_entries SET after = jsonb_set(after, '{amount}', '"1"') WHERE sequence = 123`);
    } finally {
      await client.end();
    }
    const broken = await api(system.gatewayUrl, '/api/v1/audit/verify', { key: system.keys.admin });
    expect(broken.status).toBe(200);
    expect(broken.body).toEqual({
      intact: false,
      checked: 123,
      checkpointsChecked: expect.any(Number),
      firstBadEntry: { sequence: 123, eventId: victim.eventId, problem: expect.stringMatching(/was altered/) },
    });
  });
});
