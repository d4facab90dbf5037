import { startSystem, waitFor, type RunningSystem } from '@libs/testing';
import { financeCounts } from './finance-db';
import { api, validTransaction } from './http';

const countTransactions = async (system: RunningSystem) => (await financeCounts(system)).transactions;

describe('POST /api/v1/transactions through finance, the outbox, RabbitMQ and the audit service', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem();
  }, 90_000);
  afterAll(() => system?.shutdown());

  const post = (body: unknown, key = system.keys.bursar, headers: Record<string, string> = {}) =>
    api(system.gatewayUrl, '/api/v1/transactions', { method: 'POST', key, body, headers });

  it('creates a transaction and its audit entry appears, carrying the request id the gateway made, not the client’s', async () => {
    const created = await post(validTransaction({ notes: 'Semester 1 tuition' }), system.keys.bursar, {
      'x-request-id': 'e2e-create-1',
    });
    expect(created.status).toBe(201);
    const requestId = created.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.headers.get('x-client-request-id')).toBe('e2e-create-1');
    expect(created.body).toMatchObject({ ...validTransaction({ notes: 'Semester 1 tuition' }), studentId: null, version: 1 });

    const fetched = await api(system.gatewayUrl, `/api/v1/transactions/${created.body.id}`, { key: system.keys.bursar });
    expect(fetched.body).toEqual(created.body);

    const entries = await waitFor('the audit entry', async () => {
      const { body } = await api(system.gatewayUrl, `/api/v1/audit?entityId=${created.body.id}`, { key: system.keys.admin });
      return body.entries.length > 0 ? body.entries : undefined;
    });
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'transaction.created',
        entityType: 'transaction',
        entityIds: [created.body.id],
        requestId,
        actor: { userId: created.body.madeBy, role: 'bursar' },
        before: null,
        after: created.body,
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      }),
    ]);

    // Every hop logged the request under the gateway's id.
    for (const service of ['gateway', 'finance', 'audit'] as const) {
      const lines = system.logs(service).split('\n').filter((line) => line.includes(`"requestId":"${requestId}"`));
      expect({ service, logged: lines.length > 0 }).toEqual({ service, logged: true });
    }
  });

  it('rejects bad input with problem details and writes nothing', async () => {
    const before = await countTransactions(system);
    const cases: [unknown, number, string][] = [
      [validTransaction({ amount: 12.5 }), 400, 'amount'],
      [validTransaction({ amount: '100' }), 400, 'amount'],
      [validTransaction({ colour: 'red' }), 400, 'colour'],
      [validTransaction({ date: '2026-02-30' }), 400, 'date'],
      [validTransaction({ accountId: '00000000-0000-4000-8000-0000000000ff' }), 400, 'accountId'],
      [validTransaction({ categoryId: 'not-a-uuid' }), 400, 'categoryId'],
      [[validTransaction()], 400, '(body)'],
    ];
    for (const [body, status, field] of cases) {
      const response = await post(body);
      expect({ body, status: response.status }).toEqual({ body, status });
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(response.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect(await countTransactions(system)).toBe(before);
  });

  it('answers malformed JSON with 400 and a huge body with 413', async () => {
    const malformed = await api(system.gatewayUrl, '/api/v1/transactions', {
      method: 'POST',
      key: system.keys.bursar,
      rawBody: '{"date": ',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ status: 400, detail: expect.stringMatching(/JSON/) });
    const huge = await post(validTransaction({ notes: 'x'.repeat(1_100_000) }));
    expect(huge.status).toBe(413);
  });

  it('lets only bursars and admins write', async () => {
    expect((await post(validTransaction(), system.keys.reader)).status).toBe(403);
    expect((await post(validTransaction(), system.keys.student)).status).toBe(403);
    expect((await post(validTransaction(), system.keys.admin)).status).toBe(201);
  });

  it('answers an unknown path with 404 problem+json', async () => {
    const response = await api(system.gatewayUrl, '/api/v1/nothing-here');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ type: 'about:blank', status: 404, requestId: expect.any(String) });
  });
});
