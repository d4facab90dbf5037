import { startSystem, waitFor, type RunningSystem } from '@libs/testing';
import { SERVICE_NAMES } from '@libs/topology';
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

    // The checks are reused for a second: wait for a round that ran after the stop.
    const ready = await waitFor('/readyz to answer 503', async () => {
      const answer = await api(system.gatewayUrl, '/readyz', { key: system.keys.admin });
      return answer.status === 503 ? answer : undefined;
    });
    expect(ready.body.checks.reference).toMatch(/UNREACHABLE/);

    const finance = await createTransaction();
    expect(finance.status).toBe(201);

    // A refused channel fails at once: reads are retried, and however many fail, the breaker stays closed, so the
    // first call after the upstream is back gets through.
    for (let i = 0; i < 12; i += 1) expect((await diseases()).body.detail).toMatch(/is unavailable; retry shortly/);
    const metrics = await scrape(system.metricsUrl('gateway'));
    expect(total(metrics, 'upstream_retries_total', { upstream: 'reference' })).toBeGreaterThan(0);
    expect(total(metrics, 'circuit_breaker_state', { upstream: 'reference', state: 'closed' })).toBe(1);

    // The gateway's channel reconnects with backoff (at most 5 s), so recovery is awaited, not assumed.
    await system.start('reference');
    await waitFor('the reference service to answer through the gateway again', async () => {
      return (await diseases()).status === 200 ? true : undefined;
    });
  });

  it('opens the breaker when calls run into their deadline: answers 503 at once without calling, shows it, and recovers', async () => {
    // A frozen process accepts calls and never answers them.
    const reference = system.pid('reference') as number;
    process.kill(reference, 'SIGSTOP');
    try {
      // Timeouts until the breaker opens: past its volume threshold (10 calls in its window), and more than half
      // of the window's calls, however many calls the previous test left in it (answered at once, they count
      // as successes). Each round costs one deadline; a few rounds outlast any window.
      let paused: Awaited<ReturnType<typeof diseases>> | undefined;
      for (let round = 0; round < 4 && paused === undefined; round += 1) {
        const failures = await Promise.all(Array.from({ length: 12 }, () => diseases()));
        expect(failures.filter((failure) => failure.status !== 504 && failure.status !== 503)).toEqual([]);
        const next = await diseases();
        if (next.status === 503) paused = next;
        else expect(next.status).toBe(504);
      }
      if (!paused) throw new Error('the breaker did not open after 4 rounds of timeouts');
      expect(paused.body.detail).toMatch(/calls are paused/);
      expect(Number(paused.headers.get('retry-after'))).toBe(RESET_MS / 1000);
      const metrics = await scrape(system.metricsUrl('gateway'));
      expect(total(metrics, 'circuit_breaker_state', { upstream: 'reference', state: 'open' })).toBe(1);
      expect(total(metrics, 'circuit_breaker_state', { upstream: 'finance', state: 'closed' })).toBe(1);
      expect(total(metrics, 'upstream_request_duration_seconds_count', { upstream: 'reference', outcome: 'BREAKER_OPEN' })).toBeGreaterThan(0);
      expect((await api(system.gatewayUrl, '/readyz', { key: system.keys.admin })).body.breakers).toMatchObject({ reference: 'open', finance: 'closed' });

      // Another upstream's breaker is its own: finance keeps working.
      const finance = await createTransaction();
      expect(finance.status).toBe(201);
    } finally {
      // Back: after the reset timeout the half-open breaker lets a trial call through, and its answer closes it.
      process.kill(reference, 'SIGCONT');
    }
    await waitFor('the breaker to close again', async () => ((await diseases()).status === 200 ? true : undefined), RESET_MS + 10_000);
    expect((await api(system.gatewayUrl, '/readyz', { key: system.keys.admin })).body.breakers.reference).toBe('closed');
  });

  it.each(SERVICE_NAMES)('%s exits 0 on SIGTERM within 10 s', async (service) => {
    const started = Date.now();
    expect(await system.stop(service)).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(system.logs(service)).toMatch(/"msg":"stopped"/);
  });
});
