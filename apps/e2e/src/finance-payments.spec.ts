import { randomUUID } from 'node:crypto';
import { startSystem, waitFor, type RunningSystem } from '@libs/testing';
import { financeCounts, outboxActionsSince } from './finance-db';
import { DEMO_STUDENT_ID, fixtures } from './finance-fixtures';
import { api } from './http';

describe('proofs of payment, statements and finance records', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem();
  }, 90_000);
  afterAll(() => system?.shutdown());

  const call = (path: string, options: Parameters<typeof api>[2] = {}) =>
    api(system.gatewayUrl, path, { key: system.keys.bursar, ...options });
  const statement = async () => (await call(`/api/v1/finance/students/${DEMO_STUDENT_ID}/statement`)).body;

  it('a student submits for themselves; the accepted payment credits their statement; resolve ends it', async () => {
    const submitted = await api(system.gatewayUrl, '/api/v1/transactions/payments', {
      method: 'POST',
      key: system.keys.student,
      body: { amount: 30_000, date: '2026-10-05', description: 'Receipt 7731' },
    });
    expect(submitted.status).toBe(201);
    // No note yet: null, as every absent value, never "".
    expect(submitted.body).toMatchObject({ studentId: DEMO_STUDENT_ID, amount: 30_000, status: 'pending', outcome: null, note: null });
    const path = `/api/v1/transactions/payments/${submitted.body.id}`;

    const opening = await statement();
    const outboxBefore = (await financeCounts(system)).outbox;
    const processed = await call(path, { method: 'PATCH', body: { outcome: 'accepted', note: 'seen on bank statement' } });
    expect(processed.body).toMatchObject({ status: 'processed', outcome: 'accepted', processedBy: expect.any(String) });

    const credited = await statement();
    expect(credited.balance).toBe(opening.balance + 30_000);
    expect(credited.lines.at(-1)).toMatchObject({ credit: 30_000, debit: 0, balance: credited.balance, date: '2026-10-05' });
    const running = credited.lines.reduce((sum: number, line: { credit: number; debit: number; balance: number }) => {
      expect(line.balance).toBe(sum + line.credit - line.debit);
      return line.balance;
    }, 0);
    expect(running).toBe(credited.balance);

    const resolved = await call(`${path}/resolve`, { method: 'PATCH', body: { note: 'filed' } });
    expect(resolved.body).toMatchObject({ status: 'resolved', outcome: 'accepted', note: 'filed' });
    expect(await outboxActionsSince(system, outboxBefore)).toEqual([
      { action: 'payment.processed', entityIds: [submitted.body.id] },
      { action: 'payment.resolved', entityIds: [submitted.body.id] },
    ]);
    // The events reach the audit log through RabbitMQ, with the actor who made each move.
    const entries = await waitFor('three audit entries for the payment', async () => {
      const { body } = await call(`/api/v1/audit?entityId=${submitted.body.id}`, { key: system.keys.admin });
      return body.entries.length === 3 ? body.entries : undefined;
    });
    expect(entries.map((e: { action: string; actor: { role: string } }) => [e.action, e.actor.role]).sort()).toEqual([
      ['payment.processed', 'bursar'],
      ['payment.resolved', 'bursar'],
      ['payment.submitted', 'student'],
    ]);
  });

  it('a rejected payment credits nothing', async () => {
    const payment = await fixtures(system).pendingPayment();
    const opening = await statement();
    const rejected = await call(`/api/v1/transactions/payments/${payment.id}`, { method: 'PATCH', body: { outcome: 'rejected' } });
    expect(rejected.body).toMatchObject({ status: 'processed', outcome: 'rejected' });
    expect(await statement()).toEqual(opening);
  });

  it('answers every illegal move with 409 and changes nothing', async () => {
    const pending = await fixtures(system).pendingPayment();
    const processed = await fixtures(system).processedPayment();
    const before = await financeCounts(system);
    const moves: [string, unknown][] = [
      [`/api/v1/transactions/payments/${pending.id}/resolve`, {}],
      [`/api/v1/transactions/payments/${processed.id}`, { outcome: 'accepted' }],
    ];
    for (const [path, body] of moves) {
      const response = await call(path, { method: 'PATCH', body });
      expect({ path, status: response.status }).toEqual({ path, status: 409 });
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
    await call(`/api/v1/transactions/payments/${processed.id}/resolve`, { method: 'PATCH' });
    const resolvedAgain = await call(`/api/v1/transactions/payments/${processed.id}/resolve`, { method: 'PATCH' });
    expect(resolvedAgain.status).toBe(409);
    expect((await financeCounts(system)).outbox).toBe(before.outbox + 1);
    expect((await call(`/api/v1/transactions/payments/${randomUUID()}`, { method: 'PATCH', body: { outcome: 'accepted' } })).status).toBe(404);
    expect((await call(`/api/v1/transactions/payments/${pending.id}`, { method: 'PATCH', body: { outcome: 'maybe' } })).status).toBe(400);
  });

  it('of concurrent moves on one payment exactly one wins, and the statement is credited once', async () => {
    const payment = await fixtures(system).pendingPayment(DEMO_STUDENT_ID, 1_234);
    const before = await financeCounts(system);
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(`/api/v1/transactions/payments/${payment.id}`, {
          method: 'PATCH',
          key: i % 2 ? system.keys.bursar : system.keys.admin,
          body: { outcome: 'accepted' },
        }),
      ),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    const after = await financeCounts(system);
    expect(after.financial_statements - before.financial_statements).toBe(1);
    expect(after.outbox - before.outbox).toBe(1);
  });

  it('lists payments filtered by status and student, with a cursor', async () => {
    const student = await fixtures(system).student();
    for (let i = 0; i < 3; i++) await fixtures(system).pendingPayment(student.id, 100 + i);
    const first = await call(`/api/v1/transactions/payments?studentId=${student.id}&status=pending&limit=2`);
    expect(first.body.payments).toHaveLength(2);
    const second = await call(`/api/v1/transactions/payments?studentId=${student.id}&status=pending&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.nextCursor).toBeUndefined();
    expect([...first.body.payments, ...second.body.payments].map((p: { amount: number }) => p.amount)).toEqual([100, 101, 102]);
    expect((await call(`/api/v1/transactions/payments?studentId=${student.id}&status=processed`)).body.payments).toEqual([]);
    expect((await call('/api/v1/transactions/payments?status=lost')).status).toBe(400);
  });

  it('a student cannot submit for another student', async () => {
    const other = await fixtures(system).student();
    const response = await api(system.gatewayUrl, '/api/v1/transactions/payments', {
      method: 'POST',
      key: system.keys.student,
      body: { studentId: other.id, amount: 1, date: '2026-10-05' },
    });
    expect(response.status).toBe(403);
  });

  it('staff post charges and credits to a statement; the running balance follows them', async () => {
    const student = await fixtures(system).student();
    const path = `/api/v1/finance/students/${student.id}/statement`;
    const post = (body: unknown) => call(path, { method: 'POST', body });
    const charge = await post({ date: '2026-09-01', description: 'Tuition, semester 1', debit: 125_000, semesterId: '2026-S1' });
    expect(charge).toMatchObject({ status: 201, body: { debit: 125_000, credit: 0, balance: -125_000, semesterId: '2026-S1' } });
    await post({ date: '2026-09-10', description: 'Scholarship', credit: 50_000 });
    await post({ date: '2026-09-05', description: 'Late registration', debit: 2_000 });
    const { body } = await call(path);
    expect(body.lines.map((l: { description: string; balance: number }) => [l.description, l.balance])).toEqual([
      ['Tuition, semester 1', -125_000],
      ['Late registration', -127_000],
      ['Scholarship', -77_000],
    ]);
    expect(body.balance).toBe(-77_000);

    const before = await financeCounts(system);
    for (const bad of [{ date: '2026-09-01', description: 'Both', debit: 1, credit: 1 }, { date: '2026-09-01', description: 'None' }, { date: '2026-09-01', description: 'Negative', debit: -5 }]) {
      expect({ bad, status: (await post(bad)).status }).toEqual({ bad, status: 400 });
    }
    expect((await call(`/api/v1/finance/students/${randomUUID()}/statement`, { method: 'POST', body: { date: '2026-09-01', description: 'x', debit: 1 } })).status).toBe(404);
    expect(await financeCounts(system)).toEqual(before);
  });

  it('creates, lists and gets finance records; duplicates are 409 and unknown references 400', async () => {
    const category = await call('/api/v1/finance/categories', { method: 'POST', body: { name: 'Lab fees' } });
    expect(category).toMatchObject({ status: 201, body: { name: 'Lab fees', id: expect.any(String) } });
    expect((await call(`/api/v1/finance/categories/${category.body.id}`)).body).toEqual(category.body);
    expect((await call('/api/v1/finance/categories')).body.items).toContainEqual(category.body);
    expect((await call('/api/v1/finance/categories', { method: 'POST', body: { name: 'Lab fees' } })).status).toBe(409);

    const orphan = await call('/api/v1/finance/students', { method: 'POST', body: { registrationNumberId: randomUUID() } });
    expect(orphan.status).toBe(400);
    expect(orphan.body.errors).toEqual([{ field: 'registrationNumberId', message: 'does not exist' }]);
    const number = await call('/api/v1/finance/registration-numbers', { method: 'POST', body: { number: 'UNI/2026/42' } });
    const student = await call('/api/v1/finance/students', {
      method: 'POST',
      body: { registrationNumberId: number.body.id, currentProgramLevelId: 'year-2' },
    });
    expect(student.body).toMatchObject({ registrationNumberId: number.body.id, userId: null, currentProgramLevelId: 'year-2' });
    const again = await call('/api/v1/finance/students', { method: 'POST', body: { registrationNumberId: number.body.id } });
    expect(again.status).toBe(409);
    expect((await call(`/api/v1/finance/students/${student.body.id}/statement`)).body).toEqual({
      studentId: student.body.id,
      lines: [],
      balance: 0,
    });
    expect((await call(`/api/v1/finance/accounts/${randomUUID()}`)).status).toBe(404);
  });

  it('updates accounts, categories and students, with or without If-Match; a stale version is a 412 and changes nothing', async () => {
    const account = await call('/api/v1/finance/accounts', { method: 'POST', body: { name: 'Sports club', userId: 'u-1' } });
    expect(account.headers.get('etag')).toBe('"1"');
    const path = `/api/v1/finance/accounts/${account.body.id}`;
    const patch = (body: unknown, ifMatch?: string) =>
      call(path, { method: 'PATCH', body, headers: ifMatch ? { 'if-match': ifMatch } : {} });
    // No If-Match: the last write wins.
    expect(await patch({ name: 'Sports team' })).toMatchObject({ status: 200, body: { name: 'Sports team', version: 2 } });
    const renamed = await patch({ name: 'Sports union', userId: null }, '"2"');
    expect(renamed).toMatchObject({ status: 200, body: { name: 'Sports union', userId: null, version: 3 } });
    expect(renamed.headers.get('etag')).toBe('"3"');
    const before = await financeCounts(system);
    expect((await patch({ name: 'Stale' }, '"2"')).status).toBe(412);
    expect((await patch({ name: '' }, '"3"')).status).toBe(400);
    expect((await patch({ colour: 'red' }, '"3"')).status).toBe(400);
    expect((await patch({}, '"3"')).status).toBe(400);
    expect(await financeCounts(system)).toEqual(before);
    expect((await call(path)).body).toMatchObject({ name: 'Sports union', version: 3 });

    const taken = await fixtures(system).student();
    const other = await fixtures(system).student();
    const outboxBefore = (await financeCounts(system)).outbox;
    await call(`/api/v1/finance/students/${taken.id}`, { method: 'PATCH', body: { userId: 'user-42' }, headers: { 'if-match': '*' } });
    const duplicate = await call(`/api/v1/finance/students/${other.id}`, {
      method: 'PATCH',
      body: { userId: 'user-42' },
      headers: { 'if-match': '*' },
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.errors).toEqual([{ field: 'userId', message: 'is already taken' }]);
    expect(await outboxActionsSince(system, outboxBefore)).toEqual([{ action: 'student.updated', entityIds: [taken.id] }]);
  });
});
