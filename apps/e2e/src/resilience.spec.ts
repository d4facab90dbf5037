import { startSystem, waitFor, type RunningSystem } from '@libs/testing';
import { api, validTransaction } from './http';

describe('an upstream that is down, and graceful shutdown', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem({ env: { gateway: { UPSTREAM_TIMEOUT_MS: '2000' } } });
  }, 90_000);
  afterAll(() => system?.shutdown());

  it('answers 503 problem+json with Retry-After, within the deadline, while another upstream keeps working', async () => {
    expect(await system.stop('reference')).toBe(0);

    const started = Date.now();
    const down = await api(system.gatewayUrl, '/api/v1/diseases?n=asthma', { key: system.keys.reader });
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(down.status).toBe(503);
    expect(down.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Number(down.headers.get('retry-after'))).toBeGreaterThan(0);

    const ready = await api(system.gatewayUrl, '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.checks.reference).toMatch(/UNREACHABLE/);

    const finance = await api(system.gatewayUrl, '/api/v1/transactions', {
      method: 'POST',
      key: system.keys.bursar,
      body: validTransaction(),
    });
    expect(finance.status).toBe(201);

    // The gateway's channel reconnects with backoff (at most 5 s), so recovery is awaited, not assumed.
    await system.start('reference');
    await waitFor('the reference service to answer through the gateway again', async () => {
      const back = await api(system.gatewayUrl, '/api/v1/diseases?n=asthma', { key: system.keys.reader });
      return back.status === 200 ? true : undefined;
    });
  });

  it.each(['gateway', 'finance', 'audit', 'reference'] as const)('%s exits 0 on SIGTERM within 10 s', async (service) => {
    const started = Date.now();
    expect(await system.stop(service)).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(system.logs(service)).toMatch(/"msg":"stopped"/);
  });
});
