import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FINANCE_LIMITS } from '@libs/contracts';
import { peakRssMb, startSystem, waitFor, withPgClient, type RunningSystem } from '@libs/testing';
import { SERVICE_NAMES } from '@libs/topology';
import { api, validTransaction } from './http';

/**
 * Large audit events (issue 26, finding 5): each bulk create of 1,000 items with 865-character notes is a body of
 * about 1.04 MB and one audit event of about 1.2 MB. About 40 such entries ran /verify out of memory when it read
 * 2,000 entries at once, and a page of 50 of them the gateway: a few hundred, as the finding asks, show with room
 * that every reader is bounded by bytes (docs/decisions/0024).
 */
const LARGE_ENTRIES = 200;
/** Bulk creates in flight at once: enough to keep finance and the relay busy on two cores. */
const CONCURRENCY = 4;
const NOTES = 'n'.repeat(865);
const ROOT = resolve(__dirname, '../../..');

/** A service's memory limit in its Kubernetes deployment, in MiB: what it must stay under. */
function memoryLimitMib(service: string): number {
  const yaml = readFileSync(join(ROOT, 'deploy/kubernetes/base', service, 'deployment.yaml'), 'utf8');
  const mib = /limits:\s*\n\s*memory: (\d+)Mi/.exec(yaml)?.[1];
  if (!mib) throw new Error(`no memory limit in the ${service} deployment`);
  return Number(mib);
}

describe(`${LARGE_ENTRIES} audit events of about 1.2 MB each`, () => {
  let system: RunningSystem;
  beforeAll(async () => {
    // A bulk create of 1,000 items takes seconds on a shared two-core machine: this spec is about memory, not speed.
    system = await startSystem({ env: { gateway: { UPSTREAM_TIMEOUT_MS: '30000' } } });
  }, 90_000);
  afterAll(() => system?.shutdown());

  const call = (path: string, options: Parameters<typeof api>[2] = {}) => api(system.gatewayUrl, path, { key: system.keys.admin, ...options });

  /**
   * Bulk creates `count` times, CONCURRENCY at a time; each must answer 201, also those that meet finance's
   * connection as it is renewed (MAX_CONNECTION_AGE_MS): the gateway's client sends them again (libs/grpc client.ts).
   */
  async function bulkCreates(count: number): Promise<void> {
    const items = Array.from({ length: FINANCE_LIMITS.bulkItems }, (_, i) => validTransaction({ amount: -(i + 1), notes: NOTES }));
    let next = 0;
    const worker = async () => {
      while (next < count) {
        next += 1;
        const created = await call('/api/v1/transactions/bulk-create', { method: 'POST', body: items, headers: { 'idempotency-key': randomUUID() } });
        if (created.status !== 201) throw new Error(`bulk create answered ${created.status}: ${JSON.stringify(created.body)}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  }

  const storedLargeEntries = () =>
    withPgClient(system.databaseUrl('audit'), async (client) => {
      const { rows } = await client.query<{ count: number }>(
        "SELECT count(*)::int AS count FROM audit_entries WHERE action = 'transaction.bulk_created' AND body_bytes > 1000000",
      );
      return rows[0].count;
    });

  it('are stored with every process under its memory limit; /verify, a page of them and the dead letters answer', async () => {
    const pids = Object.fromEntries(SERVICE_NAMES.map((service) => [service, system.pid(service)]));
    await bulkCreates(LARGE_ENTRIES);
    await waitFor(`${LARGE_ENTRIES} large audit entries`, async () => ((await storedLargeEntries()) >= LARGE_ENTRIES ? true : undefined), 300_000);

    const verdict = await call('/api/v1/audit/verify');
    expect(verdict.status).toBe(200);
    expect(verdict.body).toMatchObject({ intact: true, checked: expect.any(Number) });
    expect(verdict.body.checked).toBeGreaterThanOrEqual(LARGE_ENTRIES);

    // A page of 50 asked for holds as many of the largest entries as its byte budget allows, and a cursor to the rest.
    const page = await call('/api/v1/audit?action=transaction.bulk_created&limit=50');
    expect(page.status).toBe(200);
    expect(page.body.entries.length).toBeGreaterThanOrEqual(1);
    expect(page.body.entries.length).toBeLessThan(50);
    expect(page.body.entries[0].after).toHaveLength(FINANCE_LIMITS.bulkItems);
    expect(page.body.nextCursor).toEqual(expect.any(String));
    const following = await call(`/api/v1/audit?action=transaction.bulk_created&limit=50&cursor=${page.body.nextCursor}`);
    expect(following.status).toBe(200);
    expect(following.body.entries[0].sequence).toBeLessThan(page.body.entries.at(-1).sequence);

    expect((await call('/api/v1/audit/dead-letters')).body).toMatchObject({ depth: 0 });
    // The same processes as at the start (none ran out of memory), each at its worst under its limit.
    expect(Object.fromEntries(SERVICE_NAMES.map((service) => [service, system.pid(service)]))).toEqual(pids);
    const peaks = SERVICE_NAMES.map((service) => ({ service, peakMib: Math.round(peakRssMb(pids[service] as number)), limitMib: memoryLimitMib(service) }));
    expect(peaks.filter(({ peakMib, limitMib }) => peakMib >= limitMib)).toEqual([]);
  }, 600_000);
});
