import { Client } from 'pg';
import { signUp, startSystem, waitFor, type RunningSystem } from '@libs/testing';
import { startGatewayProcess, type GatewayProcess } from './gateway-process';
import { api, type ApiResponse } from './http';
import { scrape, total } from './metrics';

/**
 * Per-key limits against the real processes: a reader's limits set small by
 * the environment (as an operator would), keys registered the way anyone gets
 * one, admin overrides through the API, and a second gateway instance on the
 * same database.
 */
const READER_LIMITS = { RATE_LIMIT_READER: '5', DAILY_QUOTA_READER: '1000', CONCURRENCY_LIMIT_READER: '2' };
// A short write interval, so that the tests wait little for the instances to share their counts; a far
// deadline, so that a call to a frozen service stays in progress for as long as a test needs.
const GATEWAY_ENV = { ...READER_LIMITS, KEY_USAGE_FLUSH_MS: '200', UPSTREAM_TIMEOUT_MS: '30000' };

interface ServiceLimit {
  r: number;
  t?: number;
}

/** The RateLimit field, e.g. `"minute";r=4;t=12, "day";r=999;t=3600, "concurrency";r=2`, by policy name. */
function serviceLimits(response: ApiResponse): Record<string, ServiceLimit> {
  const field = response.headers.get('ratelimit') ?? '';
  return Object.fromEntries(
    field.split(/,\s*/).map((item) => {
      const [name, ...params] = item.split(';');
      const values = Object.fromEntries(params.map((param) => param.split('=')).map(([key, value]) => [key, Number(value)]));
      return [JSON.parse(name), values as unknown as ServiceLimit];
    }),
  );
}

describe('per-key rate limits, daily quotas and concurrency caps', () => {
  let system: RunningSystem;
  let second: GatewayProcess;
  let accounts = 0;

  beforeAll(async () => {
    system = await startSystem({ env: { gateway: GATEWAY_ENV } });
    second = await startGatewayProcess(`${system.namespace}/gateway-2`, {
      ...GATEWAY_ENV,
      DATABASE_URL: system.databaseUrl('gateway'),
      NODE_ENV: 'test',
      REFERENCE_ADDR: '127.0.0.1:9', // this instance serves only what needs no upstream
    });
  }, 120_000);
  afterAll(async () => {
    await second?.stop();
    await system?.shutdown();
  }, 60_000);

  /** A new reader: a key under the reader role's limits, and its id. */
  async function newReader(): Promise<{ key: string; id: string }> {
    accounts += 1;
    return signUp(system.gatewayUrl, { email: `limits-${accounts}@example.org`, password: 'a fine password' });
  }

  const setLimits = (id: string, limits: Record<string, number | null>, key = system.keys.admin) =>
    api(system.gatewayUrl, `/api/v1/auth/keys/${id}`, { method: 'PATCH', key, body: limits });

  let searches = 0;
  /** A disease search past the gateway's cache, so that each one is an upstream call. */
  const search = (key: string, url = system.gatewayUrl) => {
    searches += 1;
    return api(url, `/api/v1/diseases?n=asthma&b=${1 + (searches % 200)}`, { key, headers: { 'cache-control': 'no-cache' } });
  };

  /** The key's day count as every instance together has written it. */
  async function storedDayCount(keyId: string): Promise<number> {
    const client = new Client({ connectionString: system.databaseUrl('gateway') });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>('SELECT quota_day_requests AS n FROM api_keys WHERE id = $1', [keyId]);
      return Number(rows[0].n);
    } finally {
      await client.end();
    }
  }

  it('states the role limits on every keyed answer, counts down, then answers 429 with Retry-After', async () => {
    const { key } = await newReader();
    // Every answer to a keyed request carries the fields, a refusal by role too; and every admitted request counts.
    const forbidden = await api(system.gatewayUrl, '/api/v1/transactions', { key });
    expect(forbidden.status).toBe(403);
    const remaining = [serviceLimits(forbidden).minute.r];
    for (let i = 1; i < 5; i += 1) {
      const answer = await search(key);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('ratelimit-policy')).toBe(
        '"minute";q=5;w=60, "day";q=1000;w=86400, "concurrency";q=2;qu="concurrent-requests"',
      );
      remaining.push(serviceLimits(answer).minute.r);
      expect(serviceLimits(answer).day.r).toBe(1000 - (i + 1));
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);

    const refused = await search(key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({
      type: 'https://iana.org/assignments/http-problem-types#quota-exceeded',
      status: 429,
      'violated-policies': ['minute'],
    });
    // One request's worth refills every 12 s (5 a minute); the RateLimit field agrees with Retry-After.
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(12);
    expect(serviceLimits(refused).minute).toEqual({ r: 0, t: retryAfter });
    // A refused request uses none of the day's quota.
    expect(serviceLimits(refused).day.r).toBe(995);
  });

  it('refuses requests over the daily quota until UTC midnight', async () => {
    const { key, id } = await newReader();
    expect((await setLimits(id, { dailyQuota: 3, rateLimit: 1000 })).status).toBe(200);
    for (let i = 0; i < 3; i += 1) expect((await search(key)).status).toBe(200);

    const refused = await search(key);
    expect(refused.status).toBe(429);
    expect(refused.body['violated-policies']).toEqual(['day']);
    const now = new Date();
    const toMidnight = (Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000;
    expect(Math.abs(Number(refused.headers.get('retry-after')) - toMidnight)).toBeLessThan(60);
    expect(serviceLimits(refused).day).toEqual({ r: 0, t: Number(refused.headers.get('retry-after')) });
  });

  it("lets an admin change one key's limits, on every instance, and give it back its role's", async () => {
    const { key, id } = await newReader();
    // The second instance has seen the key (and cached its limits) before they change.
    expect((await api(second.url, '/api/v1/auth/me', { key })).status).toBe(200);
    await waitFor('the key to use its minute', async () => ((await search(key)).status === 429 ? true : undefined));
    await waitFor('the second instance to learn that the key used its minute', async () =>
      (await api(second.url, '/api/v1/auth/me', { key })).status === 429 ? true : undefined,
    );

    // Only an admin may, and only with well-formed limits.
    const other = await newReader();
    expect((await setLimits(id, { rateLimit: 100 }, other.key)).status).toBe(403);
    const malformed = await setLimits(id, { rateLimit: 0, burst: 3 } as never);
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['burst', 'rateLimit']);
    expect((await setLimits('00000000-0000-4000-8000-000000000000', { rateLimit: 100 })).status).toBe(404);

    const raised = await setLimits(id, { rateLimit: 100 });
    expect(raised.status).toBe(200);
    expect(raised.body).toMatchObject({ id, limits: { rateLimit: 100, dailyQuota: 1000, concurrencyLimit: 2 }, customLimits: { rateLimit: 100 } });
    const after = await search(key);
    expect(after.status).toBe(200);
    expect(after.headers.get('ratelimit-policy')).toMatch(/^"minute";q=100;w=60,/);
    await waitFor(
      'the second instance to apply the new limit',
      async () => ((await api(second.url, '/api/v1/auth/me', { key })).status === 200 ? true : undefined),
      5_000,
    );

    const reset = await setLimits(id, { rateLimit: null });
    expect(reset.body).toMatchObject({ limits: { rateLimit: 5 }, customLimits: {} });
    const owner = (await api(system.gatewayUrl, '/api/v1/auth/me', { key: other.key })).body.id as string;
    const theirs = await api(system.gatewayUrl, `/api/v1/auth/users/${owner}/keys`, { key: system.keys.admin });
    expect(theirs.body.keys).toEqual([
      expect.objectContaining({ id: other.id, limits: { rateLimit: 5, dailyQuota: 1000, concurrencyLimit: 2 }, customLimits: {} }),
    ]);
  });

  it('shares one key’s counts between two gateway instances', async () => {
    const { key, id } = await newReader();
    expect((await setLimits(id, { dailyQuota: 6, rateLimit: 1000 })).status).toBe(200);
    for (let i = 0; i < 3; i += 1) expect((await api(system.gatewayUrl, '/api/v1/auth/me', { key })).status).toBe(200);
    await waitFor('the first instance to write its counts', async () => ((await storedDayCount(id)) === 3 ? true : undefined));

    // The second instance starts from what the first admitted ...
    const days: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const answer = await api(second.url, '/api/v1/auth/me', { key });
      expect(answer.status).toBe(200);
      days.push(serviceLimits(answer).day.r);
    }
    expect(days).toEqual([2, 1, 0]);
    await waitFor('the second instance to write its counts', async () => ((await storedDayCount(id)) === 6 ? true : undefined));

    // ... and the first learns what the second admitted, with its next batched write but one (the next may
    // have begun before the second's was in), without a request of its own.
    const writes = async () => total(await scrape(system.metricsUrl('gateway')), 'api_key_usage_writes_total', { outcome: 'ok' });
    const before = await writes();
    await waitFor('the first instance to read the counts back', async () => ((await writes()) >= before + 2 ? true : undefined));
    const refused = await api(system.gatewayUrl, '/api/v1/auth/me', { key });
    expect(refused.status).toBe(429);
    expect(refused.body['violated-policies']).toEqual(['day']);
    expect(await storedDayCount(id)).toBe(6);
  });

  it('remembers the counts across a restart of the gateway', async () => {
    const { key, id } = await newReader();
    // One request a minute: the restart takes far less than the minute it must remember.
    expect((await setLimits(id, { rateLimit: 1 })).status).toBe(200);
    expect((await search(key)).status).toBe(200);
    expect((await search(key)).status).toBe(429);

    expect(await system.stop('gateway')).toBe(0);
    await system.start('gateway');
    const refused = await search(key);
    expect(refused.status).toBe(429);
    expect(refused.body['violated-policies']).toEqual(['minute']);
    expect(serviceLimits(refused).day.r).toBe(999);
  });

  it('refuses a key more upstream calls in progress than its concurrency limit, and holds the places until the calls end', async () => {
    const { key, id } = await newReader();
    // Room enough in the minute for the probes below: only the concurrency limit (2) is under test.
    expect((await setLimits(id, { rateLimit: 1000 })).status).toBe(200);
    const bystander = await newReader();
    const reference = system.pid('reference');
    if (!reference) throw new Error('the reference service is not running');
    const placesLeft = async (of: string) => serviceLimits(await api(system.gatewayUrl, '/api/v1/auth/me', { key: of })).concurrency.r;
    // A frozen reference service holds every call until it thaws (the deadline is far): two searches stay in progress.
    process.kill(reference, 'SIGSTOP');
    try {
      const clients = new AbortController();
      const held = [1, 2].map((b) =>
        fetch(`${system.gatewayUrl}/api/v1/diseases?n=asthma&b=${b}`, {
          headers: { authorization: `Bearer ${key}`, 'cache-control': 'no-cache' },
          signal: clients.signal,
        }).catch(() => 'gone'),
      );
      // The account endpoints report the key's places left, and take none.
      await waitFor('both searches to be in progress', async () => ((await placesLeft(key)) === 0 ? true : undefined));
      // The clients go away; their calls go on, and keep their places.
      clients.abort();
      expect(await Promise.all(held)).toEqual(['gone', 'gone']);

      const refused = await search(key);
      expect(refused.status).toBe(429);
      expect(refused.body['violated-policies']).toEqual(['concurrency']);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(serviceLimits(refused).concurrency).toEqual({ r: 0 });
      // Another key is not held back by this one.
      expect(await placesLeft(bystander.key)).toBe(2);
    } finally {
      process.kill(reference, 'SIGCONT');
    }
    // The places come back when the calls end.
    await waitFor('the calls to end', async () => ((await placesLeft(key)) === 2 ? true : undefined));
    expect((await search(key)).status).toBe(200);
  });
});
