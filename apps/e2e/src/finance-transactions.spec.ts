import { randomUUID } from 'node:crypto';
import { startSystem, waitFor, type RunningSystem } from '@libs/testing';
import { ageIdempotencyKeys, financeCounts, outboxActionsSince } from './finance-db';
import { fixtures } from './finance-fixtures';
import { api, DEMO_ACCOUNT_ID, DEMO_CATEGORY_ID, validTransaction } from './http';

describe('transactions: list, update, delete, bulk and idempotency', () => {
  let system: RunningSystem;
  // A dedicated account keeps list assertions independent of other tests' rows.
  let accountId: string;
  beforeAll(async () => {
    system = await startSystem();
    const account = await api(system.gatewayUrl, '/api/v1/finance/accounts', {
      method: 'POST',
      key: system.keys.admin,
      body: { name: 'List test account' },
    });
    accountId = account.body.id;
  }, 90_000);
  afterAll(() => system?.shutdown());

  const call = (path: string, options: Parameters<typeof api>[2] = {}) =>
    api(system.gatewayUrl, path, { key: system.keys.admin, ...options });

  it('lists with date and account filters, walking every page exactly once', async () => {
    const dates = ['2026-01-05', '2026-01-05', '2026-01-06', '2026-02-01', '2026-02-02', '2026-03-01', '2026-03-01'];
    const created = [];
    for (const date of dates) created.push(await fixtures(system).transaction({ date, accountId }));

    const seen: { id: string; date: string }[] = [];
    let path = `/api/v1/transactions?accountId=${accountId}&from=2026-01-05&to=2026-02-02&limit=2`;
    for (;;) {
      const page = await call(path);
      expect(page.status).toBe(200);
      seen.push(...page.body.transactions);
      if (!page.body.nextCursor) break;
      expect(page.body.transactions).toHaveLength(2);
      path = `/api/v1/transactions?accountId=${accountId}&from=2026-01-05&to=2026-02-02&limit=2&cursor=${page.body.nextCursor}`;
    }
    const expected = created.filter((t) => (t.date as string) <= '2026-02-02');
    expect(seen.map((t) => t.id).sort()).toEqual(expected.map((t) => t.id).sort());
    expect(seen.map((t) => t.date)).toEqual([...seen.map((t) => t.date)].sort());
    expect(seen[0]).toMatchObject({
      payee: 'Registrar',
      amount: -125_000,
      category: { id: DEMO_CATEGORY_ID, name: 'Tuition' },
      account: { id: accountId, name: 'List test account' },
    });
  });

  it('refuses a tampered cursor, a cursor replayed with other filters and bad parameters', async () => {
    const first = await call(`/api/v1/transactions?accountId=${accountId}&limit=1`);
    const cursor: string = first.body.nextCursor;
    const tampered = await call(`/api/v1/transactions?accountId=${accountId}&limit=1&cursor=${cursor.slice(0, -2)}xx`);
    expect(tampered.status).toBe(400);
    const replayed = await call(`/api/v1/transactions?limit=1&cursor=${cursor}`);
    expect(replayed.status).toBe(400);
    for (const query of ['from=2026-13-01', 'to=yesterday', 'limit=501', 'limit=0', 'accountId=nope']) {
      const response = await call(`/api/v1/transactions?${query}`);
      expect({ query, status: response.status }).toEqual({ query, status: 400 });
      expect(response.body.errors[0].field).toBe(query.split('=')[0]);
    }
  });

  it('PATCH without If-Match: last write wins; a stale If-Match gets 412, and no checked update is lost', async () => {
    const transaction = await fixtures(system).transaction();
    const path = `/api/v1/transactions/${transaction.id}`;
    const fetched = await call(path);
    expect(fetched.headers.get('etag')).toBe('"1"');

    // A client that sends only the changed fields, as a plain fetch does, updates the record.
    const unconditional = await call(path, { method: 'PATCH', body: { payee: 'No precondition' } });
    expect(unconditional.status).toBe(200);
    expect(unconditional.body).toMatchObject({ payee: 'No precondition', version: 2 });
    expect(unconditional.headers.get('etag')).toBe('"2"');

    // The ETag read before that write is now stale.
    expect((await call(path, { method: 'PATCH', body: { payee: 'Stale' }, headers: { 'if-match': '"1"' } })).status).toBe(412);

    // Two clients edit from the same version at once: exactly one wins, the other must re-read.
    const [a, b] = await Promise.all([
      call(path, { method: 'PATCH', body: { notes: 'client A' }, headers: { 'if-match': '"2"' } }),
      call(path, { method: 'PATCH', body: { amount: -1 }, headers: { 'if-match': '"2"' } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 412]);
    const winner = a.status === 200 ? a : b;
    expect(winner.headers.get('etag')).toBe('"3"');
    expect(winner.body.version).toBe(3);

    const retried = await call(path, { method: 'PATCH', body: { payee: 'Bursary office' }, headers: { 'if-match': '"3"' } });
    expect(retried.status).toBe(200);
    const final = await call(path);
    expect(final.body).toMatchObject({ payee: 'Bursary office', version: 4 });
    expect(a.status === 200 ? final.body.notes : final.body.amount).toEqual(a.status === 200 ? 'client A' : -1);
  });

  it('PATCH is partial, validated, and writes one transaction.updated event', async () => {
    const transaction = await fixtures(system).transaction();
    const path = `/api/v1/transactions/${transaction.id}`;
    const before = await financeCounts(system);
    const bad = await call(path, { method: 'PATCH', body: { accountId: randomUUID() }, headers: { 'if-match': '"1"' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'accountId', message: 'does not exist' }]);
    expect((await call(path, { method: 'PATCH', body: {}, headers: { 'if-match': '"1"' } })).status).toBe(400);
    expect((await call(path, { method: 'PATCH', body: { id: randomUUID() }, headers: { 'if-match': '"1"' } })).status).toBe(400);
    expect(await financeCounts(system)).toEqual(before);

    const updated = await call(path, { method: 'PATCH', body: { studentId: null, amount: 777 }, headers: { 'if-match': '*' } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ amount: 777, payee: transaction.payee, date: transaction.date, version: 2 });
    expect(await outboxActionsSince(system, before.outbox)).toEqual([{ action: 'transaction.updated', entityIds: [transaction.id] }]);
  });

  it('answers notes left empty as null, never "", and null clears them', async () => {
    const created = await call('/api/v1/transactions', { method: 'POST', body: validTransaction() });
    expect(created.status).toBe(201);
    expect(created.body.notes).toBeNull();
    const path = `/api/v1/transactions/${created.body.id}`;
    expect((await call(path, { method: 'PATCH', body: { notes: 'paid in two parts' } })).body.notes).toBe('paid in two parts');
    expect((await call(path, { method: 'PATCH', body: { notes: null } })).body.notes).toBeNull();
    expect((await call(path)).body.notes).toBeNull();
    // The audit log holds the same shape.
    const notesInAudit = await waitFor('the three audit entries', async () => {
      const trail = await call(`/api/v1/audit?entityType=transaction&entityId=${created.body.id}`);
      const entries = trail.body.entries as { after: { notes: unknown } }[];
      return entries.length === 3 ? entries.map((entry) => entry.after.notes) : undefined;
    });
    expect(new Set(notesInAudit)).toEqual(new Set([null, 'paid in two parts']));
  });

  it('deletes, returning the id; the id is then gone', async () => {
    const transaction = await fixtures(system).transaction();
    const path = `/api/v1/transactions/${transaction.id}`;
    const deleted = await call(path, { method: 'DELETE' });
    expect(deleted).toMatchObject({ status: 200, body: { id: transaction.id } });
    expect((await call(path)).status).toBe(404);
    expect((await call(path, { method: 'DELETE' })).status).toBe(404);
    expect((await call('/api/v1/transactions/not-a-uuid')).status).toBe(400);
  });

  it('bulk-create is all or nothing, names the bad index and writes one event for all ids', async () => {
    const before = await financeCounts(system);
    const items = Array.from({ length: 1000 }, (_, i) => validTransaction({ amount: i + 1, accountId }));
    items[417] = validTransaction({ categoryId: randomUUID() });
    const refused = await call('/api/v1/transactions/bulk-create', { method: 'POST', body: items });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ field: '[417].categoryId', message: 'does not exist' }]);
    const malformed = await call('/api/v1/transactions/bulk-create', {
      method: 'POST',
      body: [validTransaction(), validTransaction({ amount: 1.5 })],
    });
    expect(malformed.body.errors.map((e: { field: string }) => e.field)).toEqual(['[1].amount']);
    const tooMany = await call('/api/v1/transactions/bulk-create', { method: 'POST', body: Array(1001).fill(validTransaction()) });
    expect(tooMany.status).toBe(400);
    expect(await financeCounts(system)).toEqual(before);

    items[417] = validTransaction({ accountId });
    const created = await call('/api/v1/transactions/bulk-create', { method: 'POST', body: items });
    expect(created.status).toBe(201);
    expect(created.body.ids).toHaveLength(1000);
    const after = await financeCounts(system);
    expect(after.transactions - before.transactions).toBe(1000);
    expect(await outboxActionsSince(system, before.outbox)).toEqual([{ action: 'transaction.bulk_created', entityIds: created.body.ids }]);
    const one = await call(`/api/v1/transactions/${created.body.ids[5]}`);
    expect(one.body.amount).toBe(6);
  });

  it('bulk-delete is admin-only, all or nothing, and names an unknown id by index', async () => {
    const ids = [(await fixtures(system).transaction()).id, (await fixtures(system).transaction()).id];
    const before = await financeCounts(system);
    const unknown = await call('/api/v1/transactions/bulk-delete', { method: 'POST', body: [...ids, randomUUID()] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([{ field: '[2]', message: 'does not exist' }]);
    const repeated = await call('/api/v1/transactions/bulk-delete', { method: 'POST', body: [ids[0], ids[0]] });
    expect(repeated.body.errors).toEqual([{ field: '[1]', message: 'repeats an earlier id' }]);
    expect(await financeCounts(system)).toEqual(before);

    const deleted = await call('/api/v1/transactions/bulk-delete', { method: 'POST', body: ids });
    expect(deleted).toMatchObject({ status: 200, body: { ids } });
    expect((await financeCounts(system)).transactions).toBe(before.transactions - 2);
    expect(await outboxActionsSince(system, before.outbox)).toEqual([{ action: 'transaction.bulk_deleted', entityIds: [...ids].sort() }]);
  });

  it('Idempotency-Key: a retry replays the first response and writes nothing; another body is a 409', async () => {
    const key = randomUUID();
    const post = (body: unknown, idempotencyKey: string = key, apiKey = system.keys.bursar) =>
      api(system.gatewayUrl, '/api/v1/transactions', { method: 'POST', key: apiKey, body, headers: { 'idempotency-key': idempotencyKey } });
    const first = await post(validTransaction({ payee: 'Idempotent' }));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const before = await financeCounts(system);

    const retry = await post(validTransaction({ payee: 'Idempotent' }));
    // Marked as the stored answer, as Stripe marks it.
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect({ status: retry.status, body: retry.body, location: retry.headers.get('location') }).toEqual({
      status: first.status,
      body: first.body,
      location: first.headers.get('location'),
    });
    expect(await financeCounts(system)).toEqual(before);

    const different = await post(validTransaction({ payee: 'Something else' }));
    expect(different.status).toBe(409);
    expect(await financeCounts(system)).toEqual(before);

    // Keys belong to the user: another user's same key is a new request.
    expect((await post(validTransaction({ payee: 'Idempotent' }), key, system.keys.admin)).status).toBe(201);
    expect((await post(validTransaction(), 'bad key with spaces')).status).toBe(400);

    // After 24 hours the key is forgotten: the same request is new again.
    await ageIdempotencyKeys(system, 25);
    const later = await post(validTransaction({ payee: 'Idempotent' }));
    expect(later.status).toBe(201);
    expect(later.body.id).not.toBe(first.body.id);
  });

  it('Idempotency-Key: concurrent duplicates write once and all get the same answer', async () => {
    const before = await financeCounts(system);
    const key = randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        api(system.gatewayUrl, '/api/v1/transactions/bulk-create', {
          method: 'POST',
          key: system.keys.bursar,
          body: [validTransaction({ accountId: DEMO_ACCOUNT_ID }), validTransaction({ amount: 1 })],
          headers: { 'idempotency-key': key },
        }),
      ),
    );
    expect(new Set(responses.map((r) => r.status))).toEqual(new Set([201]));
    expect(new Set(responses.map((r) => JSON.stringify(r.body))).size).toBe(1);
    const after = await financeCounts(system);
    expect(after.transactions - before.transactions).toBe(2);
    expect(after.outbox - before.outbox).toBe(1);
  });
});
