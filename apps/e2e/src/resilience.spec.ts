import { startSystem, waitFor, type RunningSystem } from '@libs/testing';
import { api, validTransaction } from './http';
import { scrape, total } from './metrics';

const RESET_MS = 3_000;

describe('an upstream that is down, and graceful shutdown', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    // The reference cache off: these tests are about every call reaching a down upstream, not about stale answers.
    const gateway = { UPSTREAM_TIMEOUT_MS: '2000', BREAKER_RESET_MS: String(RESET_MS), REFERENCE_CACHE_TTL_MS: '0' };
    system = await startSystem({ env: { gateway } });
  }, 90_000);
  afterAll(() => system?.shutdown());

  const diseases = () => api(system.gatewayUrl, '/api/v1/diseases?n=asthma', { key: system.keys.reader });
  const createTransaction = () =>
    api(system.gatewayUrl, '/api/v1/transactions', { method: 'POST', key: system.keys.bursar, body: validTransaction() });

  it('answers 503 problem+json with Retry-After, within the deadline, while another upstream keeps working', async () => {
    expect(await system.stop('reference')).toBe(0);

    const started = Date.now();
    const down = await diseases();
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(down.status).toBe(503);
    expect(down.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Number(down.headers.get('retry-after'))).toBeGreaterThan(0);

    const ready = await api(system.gatewayUrl, '/readyz', { key: system.keys.admin });
    expect(ready.status).toBe(503);
    expect(ready.body.checks.reference).toMatch(/UNREACHABLE/);

    const finance = await createTransaction();
    expect(finance.status).toBe(201);

    // The gateway's channel reconnects with backoff (at most 5 s), so recovery is awaited, not assumed.
    await system.start('reference');
    await waitFor('the reference service to answer through the gateway again', async () => {
      return (await diseases()).status === 200 ? true : undefined;
    });
  });

  it('opens the breaker after repeated failures: answers 503 at once without calling, shows it, and recovers', async () => {
    expect(await system.stop('reference')).toBe(0);

    // Enough failures to pass the breaker's volume threshold (10 calls in its window).
    const failures = [];
    for (let i = 0; i < 12; i += 1) failures.push((await diseases()).status);
    expect(new Set(failures)).toEqual(new Set([503]));

    const paused = await diseases();
    expect(paused.status).toBe(503);
    expect(paused.body.detail).toMatch(/calls are paused/);
    expect(Number(paused.headers.get('retry-after'))).toBe(RESET_MS / 1000);
    const metrics = await scrape(system.metricsUrl('gateway'));
    expect(total(metrics, 'circuit_breaker_state', { upstream: 'reference', state: 'open' })).toBe(1);
    expect(total(metrics, 'circuit_breaker_state', { upstream: 'finance', state: 'closed' })).toBe(1);
    expect(total(metrics, 'upstream_request_duration_seconds_count', { upstream: 'reference', outcome: 'BREAKER_OPEN' })).toBeGreaterThan(0);
    expect(total(metrics, 'upstream_retries_total', { upstream: 'reference' })).toBeGreaterThan(0);
    expect((await api(system.gatewayUrl, '/readyz', { key: system.keys.admin })).body.breakers).toMatchObject({ reference: 'open', finance: 'closed' });

    // Another upstream's breaker is its own: finance keeps working.
    const finance = await createTransaction();
    expect(finance.status).toBe(201);

    // Back up: after the reset timeout the half-open breaker lets a trial call through, and it closes again.
    await system.start('reference');
    await waitFor(
      'the breaker to close again',
      async () => ((await diseases()).status === 200 ? true : undefined),
      RESET_MS + 10_000, // the reset timeout, plus the channel's reconnect backoff (at most 5 s)
    );
    expect((await api(system.gatewayUrl, '/readyz', { key: system.keys.admin })).body.breakers.reference).toBe('closed');
  });

  it.each(['gateway', 'finance', 'audit', 'reference'] as const)('%s exits 0 on SIGTERM within 10 s', async (service) => {
    const started = Date.now();
    expect(await system.stop(service)).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(system.logs(service)).toMatch(/"msg":"stopped"/);
  });
});
