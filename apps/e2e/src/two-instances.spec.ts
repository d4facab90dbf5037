import { Client } from 'pg';
import { startSystem, waitFor, type RunningSystem } from '@libs/testing';
import { api, validTransaction } from './http';
import { scrape, total, type Sample } from './metrics';

const TRANSACTIONS = 60;

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('two finance instances and two audit consumers at once', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem({ instances: { finance: 2, audit: 2 } });
  }, 120_000);
  afterAll(() => system?.shutdown());

  it('publishes and stores every audit event exactly once', async () => {
    // The gateway's channel connects to each instance on first use; once both are ready it takes turns.
    await waitFor('the gateway to reach both finance instances', async () => {
      await api(system.gatewayUrl, '/api/v1/transactions/00000000-0000-4000-8000-000000000000', { key: system.keys.bursar });
      const served = await Promise.all(
        [1, 2].map(async (instance) => {
          const metrics = await scrape(system.metricsUrl('finance', instance));
          return total(metrics, 'grpc_server_handling_seconds_count', { method: 'GetTransaction' });
        }),
      );
      return served.every((count) => count > 0) ? true : undefined;
    });

    const created = await Promise.all(
      Array.from({ length: TRANSACTIONS }, (_, i) =>
        api(system.gatewayUrl, '/api/v1/transactions', {
          method: 'POST',
          key: system.keys.bursar,
          body: validTransaction({ payee: `Payee ${i}` }),
        }),
      ),
    );
    expect(created.map((response) => response.status)).toEqual(Array(TRANSACTIONS).fill(201));

    const outbox = await waitFor('every outbox row to be published', async () => {
      const rows = await query<{ event_id: string; published: boolean }>(
        system.databaseUrl('finance'),
        'SELECT event_id::text, published_at IS NOT NULL AS published FROM outbox',
      );
      return rows.length >= TRANSACTIONS && rows.every((row) => row.published) ? rows : undefined;
    });
    const entries = await waitFor('every event to reach the audit log', async () => {
      // Finance's: the gateway's identity area adds its own (the run's demo users and keys).
      const rows = await query<{ event_id: string }>(system.databaseUrl('audit'), "SELECT event_id::text FROM audit_entries WHERE entity_type = 'transaction'");
      return rows.length >= outbox.length ? rows : undefined;
    });

    // Nothing lost, nothing stored twice: the same event ids on both sides.
    expect(outbox).toHaveLength(TRANSACTIONS);
    expect(entries.map((e) => e.event_id).sort()).toEqual(outbox.map((o) => o.event_id).sort());

    // Both finance instances served calls and relayed; between them each event was published once.
    const finance: Sample[][] = [await scrape(system.metricsUrl('finance', 1)), await scrape(system.metricsUrl('finance', 2))];
    for (const metrics of finance) {
      expect(total(metrics, 'grpc_server_handling_seconds_count', { method: 'CreateTransaction', code: 'OK' })).toBeGreaterThan(0);
    }
    expect(finance.map((m) => total(m, 'outbox_events_published_total')).reduce((a, b) => a + b)).toBe(TRANSACTIONS);

    // Between the two consumers each event was stored once and none came back as a duplicate: finance's, and the
    // gateway identity area's (the run's demo users and keys), every row of the log.
    const audit = await waitFor('both audit instances to report', async () => {
      const scraped = [await scrape(system.metricsUrl('audit', 1)), await scrape(system.metricsUrl('audit', 2))];
      const stored = scraped.map((m) => total(m, 'audit_events_stored_total', { outcome: 'stored' })).reduce((a, b) => a + b);
      const [{ n }] = await query<{ n: string }>(system.databaseUrl('audit'), 'SELECT count(*) AS n FROM audit_entries');
      return stored === Number(n) && stored >= TRANSACTIONS ? scraped : undefined;
    });
    expect(audit.map((m) => total(m, 'audit_events_stored_total', { outcome: 'duplicate' })).reduce((a, b) => a + b)).toBe(0);

    // The chain is whole: one unbroken sequence, each entry linked to the one before.
    const chain = await query<{ linked: boolean }>(
      system.databaseUrl('audit'),
      `SELECT prev_hash = lag(hash, 1, prev_hash) OVER (ORDER BY sequence) AS linked FROM audit_entries`,
    );
    expect(chain.every((row) => row.linked)).toBe(true);
  });
});
