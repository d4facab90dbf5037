import { startSystem, type RunningSystem } from '@libs/testing';
import { api } from './http';

interface DocumentedOperation {
  method: string;
  path: string;
  permission?: string;
  secured: boolean;
  /** The media types its 401 is declared in: problem+json, and an OperationOutcome's where FHIR is served. */
  refusalTypes: string[];
}

/** Where operations take a dashboard session as well as a key. */
const SESSION_PATHS = ['/api/v1/auth/', '/api/v1/calendar/feeds'];

/** A concrete URL for a templated path: every path parameter becomes a well-formed id nobody has. */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-00000000ffff');

describe('every operation of /openapi.json enforces its key and permission', () => {
  let system: RunningSystem;
  let operations: DocumentedOperation[];

  beforeAll(async () => {
    system = await startSystem();
    const document = (await api(system.gatewayUrl, '/openapi.json')).body as {
      paths: Record<string, Record<string, { security: unknown[]; 'x-permission'?: string; responses: Record<string, { content?: Record<string, unknown> }> }>>;
    };
    operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        permission: op['x-permission'],
        secured: op.security.length > 0,
        refusalTypes: Object.keys(op.responses['401']?.content ?? {}),
      })),
    );
  }, 90_000);
  afterAll(() => system?.shutdown());

  const call = (op: DocumentedOperation, key?: string) =>
    api(system.gatewayUrl, concrete(op.path), {
      method: op.method,
      key,
      ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { body: {} }),
    });

  it('answers 401 with WWW-Authenticate: Bearer without a key, on every secured operation', async () => {
    const secured = operations.filter((op) => op.secured);
    expect(secured.length).toBeGreaterThan(0);
    for (const op of secured) {
      const response = await call(op);
      expect({ op: `${op.method} ${op.path}`, status: response.status }).toEqual({
        op: `${op.method} ${op.path}`,
        status: 401,
      });
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      const type = response.headers.get('content-type')?.split(';')[0] ?? '';
      expect({ op: `${op.method} ${op.path}`, declared: op.refusalTypes.includes(type) }).toEqual({ op: `${op.method} ${op.path}`, declared: true });
    }
  });

  it('sends WWW-Authenticate: Bearer with every 401: unknown keys, sessions on data, a wrong password', async () => {
    const credentials = { email: 'walker@example.org', password: 'a fine password' };
    await api(system.gatewayUrl, '/api/v1/auth/register', { method: 'POST', body: credentials });
    const session = (await api(system.gatewayUrl, '/api/v1/auth/login', { method: 'POST', body: credentials })).body.token as string;
    const unknownKey = 'cfk_AAAAAAAA_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const refusals = [
      ...operations.filter((op) => op.secured).map((op) => ({ name: `${op.method} ${op.path} with an unknown key`, send: () => call(op, unknownKey) })),
      // Data operations take API keys only; the account ones (/api/v1/auth/*) and the calendar feeds, which the
      // dashboard makes for the account signed in, take sessions too.
      ...operations
        .filter((op) => op.permission && !SESSION_PATHS.some((prefix) => op.path.startsWith(prefix)))
        .map((op) => ({ name: `${op.method} ${op.path} with a session`, send: () => call(op, session) })),
      {
        name: 'login with a wrong password',
        send: () => api(system.gatewayUrl, '/api/v1/auth/login', { method: 'POST', body: { ...credentials, password: 'not the password' } }),
      },
      { name: 'GET /readyz with an unknown key', send: () => api(system.gatewayUrl, '/readyz', { key: unknownKey }) },
    ];
    for (const refusal of refusals) {
      const response = await refusal.send();
      expect({ refusal: refusal.name, status: response.status, challenge: response.headers.get('www-authenticate') }).toEqual({
        refusal: refusal.name,
        status: 401,
        challenge: 'Bearer realm="api"',
      });
    }
  });

  it('answers public operations without a key', async () => {
    for (const op of operations.filter((o) => !o.secured)) {
      const response = await call(op);
      expect({ op: `${op.method} ${op.path}`, unauthorized: response.status === 401 }).toEqual({
        op: `${op.method} ${op.path}`,
        unauthorized: false,
      });
    }
  });

  it('answers 403 to a reader on every finance, audit and user-admin operation', async () => {
    const guarded = operations.filter((op) => /^(finance|audit|users):/.test(op.permission ?? ''));
    expect(guarded.length).toBeGreaterThan(0);
    for (const op of guarded) {
      const response = await call(op, system.keys.reader);
      expect({ op: `${op.method} ${op.path}`, status: response.status }).toEqual({
        op: `${op.method} ${op.path}`,
        status: 403,
      });
    }
  });
});
