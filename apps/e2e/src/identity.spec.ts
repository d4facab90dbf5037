import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { QueryTypes } from 'sequelize';
import { createScratchDatabase, deleteBusTopology, startSystem, waitFor, type RunningSystem } from '@libs/testing';
import { startGatewayProcess, type GatewayProcess } from './gateway-process';
import { api } from './http';

const ROOT = resolve(__dirname, '../../..');
/** The bound: a revoked key stops working on every instance within 5 s. */
const REVOCATION_BOUND_MS = 5_000;

describe('identity across real gateway processes', () => {
  let system: RunningSystem;
  let second: GatewayProcess;
  beforeAll(async () => {
    system = await startSystem();
    second = await startGatewayProcess(`${system.namespace}/gateway-2`, { DATABASE_URL: system.databaseUrl('gateway'), NODE_ENV: 'test' });
  }, 120_000);
  afterAll(async () => {
    await second?.stop();
    await system?.shutdown();
  }, 60_000);

  it('prints a working demo key for each role (development)', async () => {
    for (const role of ['reader', 'student', 'bursar', 'admin'] as const) {
      const me = await api(system.gatewayUrl, '/api/v1/auth/me', { key: system.keys[role] });
      expect({ role, status: me.status, actual: me.body.role }).toEqual({ role, status: 200, actual: role });
    }
  }, 30_000);

  it('a key revoked through one gateway instance gets 401 from the other within 5 s', async () => {
    const credentials = { email: 'two-instances@example.org', password: 'a fine password' };
    expect((await api(system.gatewayUrl, '/api/v1/auth/register', { method: 'POST', body: credentials })).status).toBe(202);
    const session = (await api(system.gatewayUrl, '/api/v1/auth/login', { method: 'POST', body: credentials })).body.token;
    const created = await api(system.gatewayUrl, '/api/v1/auth/keys', { method: 'POST', key: session, body: {} });
    const { key, id } = created.body;
    // The second instance has seen (and cached) the key before it is revoked.
    expect((await api(second.url, '/api/v1/auth/me', { key })).status).toBe(200);

    // Another user's key, even with a key: refused before anything is looked up.
    expect((await api(system.gatewayUrl, `/api/v1/auth/keys/${id}`, { method: 'DELETE', key: system.keys.reader })).status).toBe(403);
    // A key cannot revoke keys (nor make them): the owner's session does.
    expect((await api(system.gatewayUrl, `/api/v1/auth/keys/${id}`, { method: 'DELETE', key })).status).toBe(403);
    expect((await api(system.gatewayUrl, `/api/v1/auth/keys/${id}`, { method: 'DELETE', key: session })).status).toBe(204);
    const refused = await waitFor(
      'the second gateway to refuse the revoked key',
      async () => {
        const reply = await api(second.url, '/api/v1/auth/me', { key });
        return reply.status === 401 ? reply : undefined;
      },
      REVOCATION_BOUND_MS,
    );
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await api(system.gatewayUrl, '/api/v1/diseases?n=asthma', { key })).status).toBe(401);
  }, 30_000);
});

describe('outside development (NODE_ENV=production)', () => {
  it('creates no demo user, prints no demo key, and creates only the bootstrap admin', async () => {
    const database = await createScratchDatabase('gateway', []);
    const name = `${database.url.split('/').pop()}-production`;
    const gateway = await startGatewayProcess(name, {
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
      // Production refuses to start without its secrets.
      ACTOR_SIGNING_KEY: 'a production-like actor signing secret',
      EVENT_SIGNING_SECRET: 'a production-like event signing secret',
      BOOTSTRAP_ADMIN_EMAIL: 'first-admin@example.org',
      BOOTSTRAP_ADMIN_PASSWORD: 'a long bootstrap password',
    });
    try {
      const printed = spawnSync(process.execPath, [join(ROOT, 'dist/apps/gateway/cli/demo-keys.cjs')], {
        env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: database.url },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(printed.status).toBe(1);
      expect(printed.stdout).toBe('');
      expect(printed.stderr).toMatch(/refusing/);

      const users = await database.sequelize.query<{ email: string; role: string }>('SELECT email, role FROM users', {
        type: QueryTypes.SELECT,
      });
      expect(users).toEqual([{ email: 'first-admin@example.org', role: 'admin' }]);
      const login = await api(gateway.url, '/api/v1/auth/login', {
        method: 'POST',
        body: { email: 'first-admin@example.org', password: 'a long bootstrap password' },
      });
      expect(login.status).toBe(200);
      expect(login.body.user.role).toBe('admin');
    } finally {
      await gateway.stop();
      await database.drop();
      await deleteBusTopology(name);
    }
  }, 60_000);
});
