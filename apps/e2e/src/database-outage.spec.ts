import { Client } from 'pg';
import { signUp, startDatabaseOutage, startSystem, waitFor, type RunningSystem } from '@libs/testing';
import { financeCounts } from './finance-db';
import { api, validTransaction, type ApiResponse } from './http';

/**
 * A service without its database: clients get an honest 503 they may retry, not
 * a 500; the service logs it as a warning, not as a bug; and it serves again as
 * soon as the database is back, with no restart.
 */
describe('a service without its database', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem();
  }, 90_000);
  afterAll(() => system?.shutdown());

  const list = () => api(system.gatewayUrl, '/api/v1/transactions?limit=5', { key: system.keys.bursar });
  const create = () =>
    api(system.gatewayUrl, '/api/v1/transactions', { method: 'POST', key: system.keys.bursar, body: validTransaction() });

  function expectRetryableProblem(response: ApiResponse, service = 'finance') {
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(response.body.detail).toBe(
      service === 'gateway' ? "the gateway's database is unavailable; retry shortly" : `the ${service} service is unavailable; retry shortly`,
    );
  }

  const errorLines = (log: string) => log.split('\n').filter((line) => line.includes('"level":"error"'));

  it('answers reads and writes 503 with Retry-After while the database is unreachable, and serves again once it is back', async () => {
    expect((await list()).status).toBe(200);
    const before = await financeCounts(system);
    const pid = system.pid('finance');

    const outage = await startDatabaseOutage(system.databaseUrl('finance'));
    try {
      expectRetryableProblem(await list());
      expectRetryableProblem(await create());
    } finally {
      await outage.end();
    }

    await waitFor('finance to read again', async () => ((await list()).status === 200 ? true : undefined));
    expect((await create()).status).toBe(201);
    expect(system.pid('finance')).toBe(pid); // no restart
    // The refused write wrote nothing; the one after the outage did.
    expect((await financeCounts(system)).transactions).toBe(before.transactions + 1);
    const log = system.logs('finance');
    expect(errorLines(log)).toEqual([]);
    expect(log).toMatch(/"level":"warn".*"method":"ListTransactions".*database unavailable/);
    expect(log).toMatch(/"level":"warn".*"method":"CreateTransaction".*database unavailable/);
  });

  it('is the same for reference and audit', async () => {
    // no-cache: the gateway's reference cache must not answer for the service.
    const search = () =>
      api(system.gatewayUrl, '/api/v1/diseases?n=asthma', { key: system.keys.reader, headers: { 'cache-control': 'no-cache' } });
    const audit = () => api(system.gatewayUrl, '/api/v1/audit?limit=5', { key: system.keys.admin });
    expect((await search()).status).toBe(200);
    expect((await audit()).status).toBe(200);

    const services = ['reference', 'audit'] as const;
    const outages = await Promise.all(services.map((service) => startDatabaseOutage(system.databaseUrl(service))));
    try {
      expectRetryableProblem(await search(), 'reference');
      expectRetryableProblem(await audit(), 'audit');
    } finally {
      await Promise.all(outages.map((outage) => outage.end()));
    }

    await waitFor('reference and audit to answer again', async () =>
      (await search()).status === 200 && (await audit()).status === 200 ? true : undefined,
    );
    for (const service of services) {
      expect(errorLines(system.logs(service))).toEqual([]);
      expect(system.logs(service)).toMatch(/"level":"warn".*database unavailable/);
    }
  });

  it('answers 503 when no pooled connection frees up within the acquire timeout', async () => {
    expect(await system.stop('finance')).toBe(0);
    await system.start('finance', { env: { DB_POOL_MAX: '1', DB_POOL_ACQUIRE_TIMEOUT_MS: '300' } });
    await waitFor('finance to answer through the gateway', async () => ((await list()).status === 200 ? true : undefined));

    // A lock taken from outside makes the next read wait inside the database, holding finance's only connection.
    const locker = new Client({ connectionString: system.databaseUrl('finance') });
    await locker.connect();
    let held: Promise<ApiResponse> | undefined;
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE transactions IN ACCESS EXCLUSIVE MODE');
      held = list();
      await waitFor('a finance query to wait for the lock', async () => {
        const { rows } = await locker.query(
          "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()",
        );
        return rows.length > 0 ? true : undefined;
      });

      expectRetryableProblem(await list());
      expectRetryableProblem(await create());
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    expect((await held)?.status).toBe(200);
    expect((await create()).status).toBe(201);
    expect(errorLines(system.logs('finance'))).toEqual([]);
    expect(system.logs('finance')).toMatch(/"level":"warn".*"cause":"SequelizeConnectionAcquireTimeoutError.*database unavailable/);
  });

  it("answers 503 with Retry-After while the gateway's own database is away, and serves again once it is back", async () => {
    const credentials = { email: 'outage@example.org', password: 'a fine password' };
    // A reader's key never used yet, so that no cache can answer for the database.
    const { key } = await signUp(system.gatewayUrl, credentials);
    const withKey = () => api(system.gatewayUrl, '/api/v1/diseases?n=asthma', { key });
    const login = () => api(system.gatewayUrl, '/api/v1/auth/login', { method: 'POST', body: credentials });
    const register = () =>
      api(system.gatewayUrl, '/api/v1/auth/register', { method: 'POST', body: { email: 'later@example.org', password: 'a fine password' } });
    const pid = system.pid('gateway');

    const outage = await startDatabaseOutage(system.databaseUrl('gateway'));
    try {
      expectRetryableProblem(await withKey(), 'gateway');
      expectRetryableProblem(await login(), 'gateway');
      expectRetryableProblem(await register(), 'gateway');
    } finally {
      await outage.end();
    }

    await waitFor('the gateway to check keys again', async () => ((await withKey()).status === 200 ? true : undefined));
    expect((await login()).status).toBe(200);
    expect((await register()).status).toBe(202);
    expect(system.pid('gateway')).toBe(pid); // no restart
    const log = system.logs('gateway');
    expect(errorLines(log)).toEqual([]);
    expect(log).toMatch(/"level":"warn".*gateway database unavailable; answered 503/);
  });
});
