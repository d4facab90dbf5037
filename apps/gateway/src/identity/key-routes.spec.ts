import { randomUUID } from 'node:crypto';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { roleLimitsFrom } from './limits/key-limits';
import { readConfig } from '../config';
import { migrations } from '../migrations';
import { startGatewayUnderTest, type GatewayUnderTest } from '../testing/gateway-under-test';

// scrypt and a real database on a shared machine: Jest's 5 s default is too tight for a noisy run.
jest.setTimeout(30_000);

describe('API keys: create, list, revoke, usage', () => {
  let db: ScratchDatabase;
  let gateway: GatewayUnderTest;
  beforeAll(async () => {
    db = await createScratchDatabase('gateway', migrations);
    // Usage is flushed by hand here, so that the test sees exactly when it is written.
    gateway = await startGatewayUnderTest(db, { KEY_USAGE_FLUSH_MS: 60_000, KEY_CACHE_TTL_MS: 5_000 });
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
    await db?.drop();
  }, 30_000);

  let counter = 0;
  /** A fresh account: its session token and its first key. */
  async function newAccount(): Promise<{ session: string; firstKey: string }> {
    counter += 1;
    const email = `user${counter}@example.org`;
    await gateway.send('POST', '/api/v1/auth/register', { body: { email, password: 'a fine password' } });
    const login = await gateway.send('POST', '/api/v1/auth/login', { body: { email, password: 'a fine password' } });
    const firstKey = await gateway.send('POST', '/api/v1/auth/keys', { token: login.body.token, body: { name: 'first key' } });
    return { session: login.body.token, firstKey: firstKey.body.key };
  }

  it('creates a named key, shows it once, and lists prefix, created, last used and requests', async () => {
    const { session } = await newAccount();
    const created = await gateway.send('POST', '/api/v1/auth/keys', { token: session, body: { name: 'ci' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'ci',
      prefix: expect.stringMatching(/^cfk_[A-Za-z0-9]{8}$/),
      createdAt: expect.any(String),
      lastUsedAt: null,
      requestCount: 0,
      key: expect.stringMatching(/^cfk_/),
    });
    expect(created.body.key.startsWith(created.body.prefix)).toBe(true);
    const { key, ...summary } = created.body;
    const listed = await gateway.send('GET', '/api/v1/auth/keys', { token: session });
    // A reader's key without limits of its own is under the reader role's.
    expect(listed.body.keys).toContainEqual({ ...summary, limits: roleLimitsFrom(readConfig()).reader, customLimits: {} });
    expect(JSON.stringify(listed.body)).not.toContain(key);
  });

  it('counts uses in memory and records them in one batch, with the last-used time', async () => {
    const { session, firstKey } = await newAccount();
    const queries = jest.spyOn(db.sequelize, 'query');
    for (let i = 0; i < 10; i += 1) expect((await gateway.send('GET', '/api/v1/auth/me', { token: firstKey })).status).toBe(200);
    const sql = queries.mock.calls.map(([statement]) => String(statement));
    queries.mockRestore();
    // The key was looked up at most a few times (once per cache TTL), and no request wrote to api_keys.
    expect(sql.filter((s) => s.includes('FROM api_keys k JOIN users')).length).toBeLessThan(10);
    expect(sql.filter((s) => s.includes('UPDATE api_keys'))).toEqual([]);

    await gateway.keys.flushUsage();
    const [listed] = (await gateway.send('GET', '/api/v1/auth/keys', { token: session })).body.keys;
    expect(listed.requestCount).toBe(10);
    expect(Date.parse(listed.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(listed.createdAt));
  });

  it('revokes a key: the key gets 401 with WWW-Authenticate at once, and leaves the list', async () => {
    const { session, firstKey } = await newAccount();
    const [{ id }] = (await gateway.send('GET', '/api/v1/auth/keys', { token: session })).body.keys;
    expect((await gateway.send('GET', '/api/v1/auth/me', { token: firstKey })).status).toBe(200);

    expect((await gateway.send('DELETE', `/api/v1/auth/keys/${id}`, { token: session })).status).toBe(204);
    const refused = await gateway.send('GET', '/api/v1/auth/me', { token: firstKey });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await gateway.send('GET', '/api/v1/auth/keys', { token: session })).body.keys).toEqual([]);
    // Revoking again is harmless.
    expect((await gateway.send('DELETE', `/api/v1/auth/keys/${id}`, { token: session })).status).toBe(204);
  });

  it('revokes cleanly while requests with the key are in flight: each gets 200 or 401, and all after get 401', async () => {
    const { session, firstKey } = await newAccount();
    const [{ id }] = (await gateway.send('GET', '/api/v1/auth/keys', { token: session })).body.keys;
    const during = Array.from({ length: 30 }, () => gateway.send('GET', '/api/v1/auth/me', { token: firstKey }));
    const revoked = await gateway.send('DELETE', `/api/v1/auth/keys/${id}`, { token: session });
    expect(revoked.status).toBe(204);
    const after = await Promise.all(Array.from({ length: 10 }, () => gateway.send('GET', '/api/v1/auth/me', { token: firstKey })));
    for (const reply of await Promise.all(during)) expect([200, 401]).toContain(reply.status);
    expect(after.map((reply) => reply.status)).toEqual(Array(10).fill(401));
  });

  it("cannot revoke another user's key (404), and names a malformed id (400)", async () => {
    const owner = await newAccount();
    const stranger = await newAccount();
    const [{ id }] = (await gateway.send('GET', '/api/v1/auth/keys', { token: owner.session })).body.keys;
    expect((await gateway.send('DELETE', `/api/v1/auth/keys/${id}`, { token: stranger.session })).status).toBe(404);
    expect((await gateway.send('DELETE', `/api/v1/auth/keys/${randomUUID()}`, { token: stranger.session })).status).toBe(404);
    expect((await gateway.send('GET', '/api/v1/auth/me', { token: owner.firstKey })).status).toBe(200);
    const malformed = await gateway.send('DELETE', '/api/v1/auth/keys/not-an-id', { token: owner.session });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors).toEqual([{ field: 'id', message: expect.stringContaining('UUID') }]);
  });

  it('refuses a too-long name and more than 20 live keys', async () => {
    const { session } = await newAccount();
    const long = await gateway.send('POST', '/api/v1/auth/keys', { token: session, body: { name: 'n'.repeat(101) } });
    expect(long.status).toBe(400);
    expect(long.body.errors[0].field).toBe('name');
    for (let live = 1; live < 20; live += 1) {
      expect((await gateway.send('POST', '/api/v1/auth/keys', { token: session, body: {} })).status).toBe(201);
    }
    const over = await gateway.send('POST', '/api/v1/auth/keys', { token: session, body: {} });
    expect(over.status).toBe(409);
    expect((await gateway.send('GET', '/api/v1/auth/keys', { token: session })).body.keys).toHaveLength(20);
  });

  it('stops creating keys after 20 in 24 hours, revoked ones included, with 429 and Retry-After', async () => {
    const { session } = await newAccount(); // its first key is the first of the 20
    const [first] = (await gateway.send('GET', '/api/v1/auth/keys', { token: session })).body.keys;
    expect((await gateway.send('DELETE', `/api/v1/auth/keys/${first.id}`, { token: session })).status).toBe(204);
    for (let created = 1; created < 20; created += 1) {
      const key = await gateway.send('POST', '/api/v1/auth/keys', { token: session, body: {} });
      expect(key.status).toBe(201);
      expect((await gateway.send('DELETE', `/api/v1/auth/keys/${key.body.id}`, { token: session })).status).toBe(204);
    }
    const over = await gateway.send('POST', '/api/v1/auth/keys', { token: session, body: {} });
    expect(over.status).toBe(429);
    expect(over.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    // The first key turns 24 hours old in just under a day.
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(23 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    expect((await gateway.send('GET', '/api/v1/auth/keys', { token: session })).body.keys).toEqual([]);
  });

  it.each([
    ['no Authorization header', undefined],
    ['an unknown key', 'cfk_AAAAAAAA_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['something that is no key at all', 'hunter2'],
    ['an unknown session', `cfs_${'A'.repeat(43)}`],
  ])('answers %s with 401 and WWW-Authenticate: Bearer', async (_case, token) => {
    const reply = await gateway.send('GET', '/api/v1/auth/keys', { token });
    expect(reply.status).toBe(401);
    expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});
