import { QueryTypes } from 'sequelize';
import { createLogger } from '@libs/logging';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { bootstrapAdmin } from './bootstrap-admin';
import { readConfig } from '../config';
import { migrations } from '../migrations';
import { startGatewayUnderTest, type GatewayUnderTest } from '../testing/gateway-under-test';

// scrypt and a real database on a shared machine: Jest's 5 s default is too tight for a noisy run.
jest.setTimeout(30_000);

describe('admin: users and roles, and the bootstrap admin', () => {
  let db: ScratchDatabase;
  let gateway: GatewayUnderTest;
  let adminSession: string;
  let readerKey: string;
  let readerId: string;
  const logger = createLogger('gateway', 'silent');
  const bootstrap = (email: string, password: string) =>
    bootstrapAdmin({ ...readConfig(), BOOTSTRAP_ADMIN_EMAIL: email, BOOTSTRAP_ADMIN_PASSWORD: password }, db.sequelize, logger);

  beforeAll(async () => {
    db = await createScratchDatabase('gateway', migrations);
    gateway = await startGatewayUnderTest(db);
    await bootstrap('root@example.org', 'the first admin password');
    adminSession = (
      await gateway.send('POST', '/api/v1/auth/login', { body: { email: 'root@example.org', password: 'the first admin password' } })
    ).body.token;
    const credentials = { email: 'rea@example.org', password: 'a fine password' };
    await gateway.send('POST', '/api/v1/auth/register', { body: credentials });
    const reader = await gateway.send('POST', '/api/v1/auth/login', { body: credentials });
    readerKey = (await gateway.send('POST', '/api/v1/auth/keys', { token: reader.body.token, body: {} })).body.key;
    readerId = reader.body.user.id;
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
    await db?.drop();
  }, 30_000);

  it('creates the bootstrap admin once and never overwrites it', async () => {
    await bootstrap('root@example.org', 'another password entirely');
    const old = await gateway.send('POST', '/api/v1/auth/login', { body: { email: 'root@example.org', password: 'the first admin password' } });
    expect(old.status).toBe(200);
    expect(old.body.user.role).toBe('admin');
  });

  it('refuses a bootstrap password out of bounds without echoing it', async () => {
    await expect(bootstrap('root2@example.org', 'tiny')).rejects.toThrow(/^BOOTSTRAP_ADMIN_PASSWORD must be at least 8 characters \(its value is not shown\)$/);
  });

  it('lists users by email, a page at a time, for admins only', async () => {
    expect((await gateway.send('GET', '/api/v1/auth/users', { token: readerKey })).status).toBe(403);
    const first = await gateway.send('GET', '/api/v1/auth/users?limit=1', { token: adminSession });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      users: [{ id: readerId, email: 'rea@example.org', role: 'reader', emailVerified: false, createdAt: expect.any(String) }],
      nextAfter: 'rea@example.org',
    });
    const second = await gateway.send('GET', '/api/v1/auth/users?limit=1&after=rea@example.org', { token: adminSession });
    expect(second.body.users.map((u: { email: string }) => u.email)).toEqual(['root@example.org']);
    for (const bad of ['limit=0', 'limit=x', 'after=not-an-email']) {
      const reply = await gateway.send('GET', `/api/v1/auth/users?${bad}`, { token: adminSession });
      expect(reply.status).toBe(400);
      expect(reply.body.errors[0].field).toBe(bad.split('=')[0]);
    }
  });

  it("changes a user's role once the address is proved, and the user's keys carry the new role at once", async () => {
    expect((await gateway.send('PATCH', `/api/v1/auth/users/${readerId}`, { token: readerKey, body: { role: 'admin' } })).status).toBe(403);
    const unverified = await gateway.send('PATCH', `/api/v1/auth/users/${readerId}`, { token: adminSession, body: { role: 'bursar' } });
    expect(unverified.status).toBe(409);
    expect(unverified.body.detail).toMatch(/has not proved its email address, so it stays a reader/);
    expect((await gateway.send('GET', '/api/v1/auth/me', { token: readerKey })).body).toMatchObject({ role: 'reader', emailVerified: false });
    // The link the registration mailed (waiting in the gateway's database: no notifications service runs here).
    const [mail] = await db.sequelize.query<{ link_token: string }>(
      "SELECT link_token FROM account_mails WHERE email = 'rea@example.org' AND template = 'verify_email'",
      { type: QueryTypes.SELECT },
    );
    expect((await gateway.send('POST', '/api/v1/auth/verify-email', { body: { token: mail.link_token } })).status).toBe(204);
    // Once only.
    const again = await gateway.send('POST', '/api/v1/auth/verify-email', { body: { token: mail.link_token } });
    expect(again.status).toBe(400);
    expect(again.body.errors[0].field).toBe('token');
    const changed = await gateway.send('PATCH', `/api/v1/auth/users/${readerId}`, { token: adminSession, body: { role: 'bursar' } });
    expect(changed.status).toBe(200);
    expect(changed.body.role).toBe('bursar');
    expect((await gateway.send('GET', '/api/v1/auth/me', { token: readerKey })).body.role).toBe('bursar');
  });

  it.each([
    ['an unknown role', 'users/ID', { role: 'owner' }, 400, 'role'],
    ['an extra field', 'users/ID', { role: 'reader', email: 'x@example.org' }, 400, 'email'],
    ['a malformed id', 'users/nope', { role: 'reader' }, 400, 'id'],
    ['an unknown id', 'users/00000000-0000-4000-8000-000000000000', { role: 'reader' }, 404, undefined],
  ])('refuses %s', async (_case, path, body, status, field) => {
    const reply = await gateway.send('PATCH', `/api/v1/auth/${path.replace('ID', readerId)}`, { token: adminSession, body });
    expect(reply.status).toBe(status);
    if (field) expect(reply.body.errors[0].field).toBe(field);
  });
});
