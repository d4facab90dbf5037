import { randomBytes, scryptSync } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { IDENTITY_LIMITS } from '@libs/contracts';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { migrations } from '../migrations';
import { REGISTRATION_ACCEPTED } from './account-routes';
import { startGatewayUnderTest, startPeerGateway, type GatewayUnderTest, type Reply } from '../testing/gateway-under-test';

const withoutRequestId = (reply: Reply) => ({ status: reply.status, body: { ...reply.body, requestId: undefined } });

// scrypt and a real database on a shared machine: Jest's 5 s default is too tight for a noisy run.
jest.setTimeout(30_000);

describe('accounts: register, login, sessions', () => {
  let db: ScratchDatabase;
  let gateway: GatewayUnderTest;
  beforeAll(async () => {
    db = await createScratchDatabase('gateway', migrations);
    gateway = await startGatewayUnderTest(db);
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
    await db?.drop();
  }, 30_000);

  /** Everything a failed attempt might have written to, except the login throttle's own counts. */
  async function accountState() {
    // Key use counted by earlier tests is written now, not half-way through a comparison.
    await gateway.keys.flushUsage();
    const tables = ['users', 'api_keys', 'sessions'];
    const rows = await Promise.all(
      tables.map((table) => db.sequelize.query(`SELECT * FROM ${table} ORDER BY id`, { type: QueryTypes.SELECT })),
    );
    return Object.fromEntries(tables.map((table, i) => [table, rows[i]]));
  }

  const register = (email: string, password = 'a fine password') =>
    gateway.send('POST', '/api/v1/auth/register', { body: { email, password } });
  const login = (email: string, password = 'a fine password') =>
    gateway.send('POST', '/api/v1/auth/login', { body: { email, password } });

  /**
   * What a client can tell two answers apart by: status, headers and body, bar
   * what differs on every answer (the request id, and the date and a problem's
   * ETag, which hashes a body holding the request id).
   */
  const visible = (reply: Reply) => ({
    status: reply.status,
    headers: [...reply.headers].filter(([name]) => !['x-request-id', 'date', 'etag'].includes(name)),
    body: reply.body,
  });

  it('makes a hash of earlier parameters again at the next sign-in, which still works after', async () => {
    await register('grace@example.org', 'an older password');
    // As the first release stored it: N = 2^15, r = 8, p = 1.
    const salt = randomBytes(16);
    const key = scryptSync('an older password', salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const older = ['scrypt', 15, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
    await db.sequelize.query("UPDATE users SET password_hash = $1 WHERE email = 'grace@example.org'", { bind: [older] });
    const storedHash = async () =>
      (await db.sequelize.query<{ password_hash: string }>("SELECT password_hash FROM users WHERE email = 'grace@example.org'", { type: QueryTypes.SELECT }))[0]
        .password_hash;

    expect((await login('grace@example.org', 'a wrong password')).status).toBe(401);
    expect(await storedHash()).toBe(older);
    expect((await login('grace@example.org', 'an older password')).status).toBe(200);
    expect(await storedHash()).toMatch(/^scrypt\$14\$8\$5\$/);
    expect((await login('grace@example.org', 'an older password')).status).toBe(200);
  });

  it('registers a reader, who signs in and creates a key; only hashes are stored', async () => {
    const reply = await register('Ada@Example.org');
    expect(reply.status).toBe(202);
    expect(reply.body).toEqual(REGISTRATION_ACCEPTED);
    const session = await login('ada@example.org');
    expect(session.body.user).toEqual({ id: expect.any(String), email: 'ada@example.org', role: 'reader', emailVerified: false, createdAt: expect.any(String) });
    const created = await gateway.send('POST', '/api/v1/auth/keys', { token: session.body.token, body: { name: 'first' } });
    const me = await gateway.send('GET', '/api/v1/auth/me', { token: created.body.key });
    expect(me.body).toEqual(session.body.user);

    const stored = JSON.stringify(await accountState());
    expect(stored).not.toContain(created.body.key);
    expect(stored).not.toContain('a fine password');
  });

  it('answers a taken email exactly as a new one, and leaves its account as it was', async () => {
    await register('hal@example.org', 'the owner password');
    const before = await accountState();
    const taken = await register('HAL@example.org', 'an intruder password');
    const fresh = await register('ida@example.org', 'an intruder password');
    expect(visible(taken)).toEqual(visible(fresh));
    expect(taken.body).toEqual(REGISTRATION_ACCEPTED);
    const after = (await accountState()) as { users: { email: string }[] };
    expect({ ...after, users: after.users.filter((user) => user.email !== 'ida@example.org') }).toEqual(before);
    expect((await login('hal@example.org', 'the owner password')).status).toBe(200);
    expect((await login('hal@example.org', 'an intruder password')).status).toBe(401);
  });

  it.each([
    ['a malformed email', { email: 'ada@', password: 'a fine password' }, 400, 'email'],
    ['an email with a space', { email: ' ada@example.org', password: 'a fine password' }, 400, 'email'],
    ['a short password', { email: 'bo@example.org', password: 'short' }, 400, 'password'],
    ['a password over 128 characters', { email: 'bo@example.org', password: 'x'.repeat(129) }, 400, 'password'],
    ['a body over the 4 KB of a public operation', { email: 'bo@example.org', password: 'x'.repeat(100_000) }, 413, undefined],
    ['a password that is not a string', { email: 'bo@example.org', password: 12345678 }, 400, 'password'],
    ['an unknown field', { email: 'bo@example.org', password: 'a fine password', role: 'admin' }, 400, 'role'],
    ['no body', undefined, 400, undefined],
  ])('refuses %s and changes nothing', async (_case, body, status, field) => {
    await register('ada@example.org');
    const before = await accountState();
    const reply = await gateway.send('POST', '/api/v1/auth/register', { body });
    expect(reply.status).toBe(status);
    expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    if (field) expect(reply.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(await accountState()).toEqual(before);
  });

  it('gives a wrong password and an unknown email the same 401 with WWW-Authenticate, and writes no account data', async () => {
    await register('cy@example.org');
    const before = await accountState();
    const wrongPassword = await login('cy@example.org', 'not the password');
    const unknownEmail = await login('nobody@example.org', 'not the password');
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    expect(withoutRequestId(wrongPassword)).toEqual(withoutRequestId(unknownEmail));
    expect(visible(wrongPassword).headers).toEqual(visible(unknownEmail).headers);
    expect(await accountState()).toEqual(before);
  });

  it('signs in with a session token that manages keys but is not an API key, and signs out', async () => {
    await register('dee@example.org');
    const session = await login('DEE@example.org');
    expect(session.status).toBe(200);
    expect(session.body).toEqual({
      token: expect.stringMatching(/^cfs_/),
      expiresAt: expect.any(String),
      user: expect.objectContaining({ email: 'dee@example.org', role: 'reader' }),
    });
    const token = session.body.token;
    expect((await gateway.send('GET', '/api/v1/auth/keys', { token })).status).toBe(200);
    const onData = await gateway.send('GET', '/api/v1/diseases', { token });
    expect(onData.status).toBe(401);
    expect((await gateway.send('POST', '/api/v1/auth/logout', { token })).status).toBe(204);
    const after = await gateway.send('GET', '/api/v1/auth/keys', { token });
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('throttles an account after 5 failed sign-ins, even with the right password, on every instance', async () => {
    await register('eve@example.org');
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expect((await login('eve@example.org', 'guess number ' + attempt)).status).toBe(401);
    }
    const throttled = await login('eve@example.org');
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);

    // A second gateway instance on the same database agrees.
    const other = await startPeerGateway(db.url);
    try {
      expect((await other.send('POST', '/api/v1/auth/login', { body: { email: 'eve@example.org', password: 'a fine password' } })).status).toBe(429);
    } finally {
      await other.close();
    }
    // Other accounts are unaffected.
    await register('fay@example.org');
    expect((await login('fay@example.org')).status).toBe(200);
  });

  it('resets the failure count after a successful sign-in', async () => {
    await register('gus@example.org');
    for (let attempt = 1; attempt <= 4; attempt += 1) expect((await login('gus@example.org', 'wrong password')).status).toBe(401);
    expect((await login('gus@example.org')).status).toBe(200);
    for (let attempt = 1; attempt <= 4; attempt += 1) expect((await login('gus@example.org', 'wrong password')).status).toBe(401);
    expect((await login('gus@example.org')).status).toBe(200);
  });

  it('refuses a 21st registration from one address in 15 minutes, before creating anything', async () => {
    // 21 scrypt hashes on a shared machine.
    // The earlier tests registered from this address too: start the window afresh.
    await db.sequelize.query(`DELETE FROM login_throttle WHERE subject LIKE 'register:%'`);
    for (let n = 1; n <= IDENTITY_LIMITS.registrationsPerAddress; n += 1) expect((await register(`class-${n}@example.org`)).status).toBe(202);
    const before = await accountState();

    const refused = await register('one-too-many@example.org');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await accountState()).toEqual(before);
    // Signing in is throttled separately.
    expect((await login('class-1@example.org')).status).toBe(200);
  }, 120_000);
});
