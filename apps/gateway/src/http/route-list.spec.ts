import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { migrations } from '../migrations';
import { startGatewayUnderTest, type GatewayUnderTest } from '../testing/gateway-under-test';
import { listRoutes } from './route-list';

/** The operations anyone may call (DESIGN.md §4); every other one needs a key or a session. */
const PUBLIC = new Set(['POST /api/v1/auth/register', 'POST /api/v1/auth/login', 'GET /healthz', 'GET /readyz']);

const SOME_ID = '00000000-0000-4000-8000-000000000001';

// Until the OpenAPI document exists, the walk covers every route the Express app has.
// scrypt and a real database on a shared machine: Jest's 5 s default is too tight for a noisy run.
jest.setTimeout(30_000);

describe('every non-public gateway route refuses a request without a key', () => {
  let db: ScratchDatabase;
  let gateway: GatewayUnderTest;
  let routes: { method: string; path: string }[];
  beforeAll(async () => {
    db = await createScratchDatabase('gateway', migrations);
    gateway = await startGatewayUnderTest(db);
    routes = listRoutes(gateway.app);
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
    await db?.drop();
  }, 30_000);

  it('finds the routes of every area', () => {
    const names = routes.map((r) => `${r.method} ${r.path}`);
    expect(names).toEqual(expect.arrayContaining([...PUBLIC, 'GET /api/v1/diseases', 'POST /api/v1/transactions', 'DELETE /api/v1/auth/keys/:id']));
  });

  it('answers 401 with WWW-Authenticate: Bearer on each of them', async () => {
    const protectedRoutes = routes.filter((r) => !PUBLIC.has(`${r.method} ${r.path}`));
    expect(protectedRoutes.length).toBeGreaterThan(5);
    const answers = await Promise.all(
      protectedRoutes.map(async ({ method, path }) => {
        const reply = await gateway.send(method, path.replace(/:\w+/g, SOME_ID), { body: method === 'GET' || method === 'DELETE' ? undefined : {} });
        return `${method} ${path} → ${reply.status} ${reply.headers.get('www-authenticate') ?? '(no WWW-Authenticate)'}`;
      }),
    );
    expect(answers).toEqual(protectedRoutes.map(({ method, path }) => `${method} ${path} → 401 Bearer realm="api"`));
  });

  it('answers 403 to a valid key without the permission', async () => {
    const reader = await gateway.send('POST', '/api/v1/auth/register', { body: { email: 'r@example.org', password: 'a fine password' } });
    const key = reader.body.key.key;
    for (const [method, path] of [['POST', '/api/v1/transactions'], ['GET', `/api/v1/transactions/${SOME_ID}`], ['GET', '/api/v1/audit'], ['GET', '/api/v1/auth/users']]) {
      const reply = await gateway.send(method, path, { token: key, body: method === 'POST' ? {} : undefined });
      expect({ route: `${method} ${path}`, status: reply.status }).toEqual({ route: `${method} ${path}`, status: 403 });
    }
  });
});
