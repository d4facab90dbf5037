import { randomUUID } from 'node:crypto';
import { startSystem, waitFor, type RunningSystem } from '@libs/testing';
import { financeCounts, outboxActionsSince } from './finance-db';
import { DEMO_STUDENT_ID, fixtures } from './finance-fixtures';
import { api } from './http';

const today = () => new Date().toISOString().slice(0, 10);

interface Line {
  id: string;
  debit: number;
  credit: number;
  balance: number;
  reversalOf: string | null;
  description: string;
}

/** Reversals instead of silent deletions (docs/FINANCE.md, "Reversals"). */
describe('reversals of transactions and accepted payments', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem();
  }, 90_000);
  afterAll(() => system?.shutdown());

  const call = (path: string, options: Parameters<typeof api>[2] = {}) =>
    api(system.gatewayUrl, path, { key: system.keys.bursar, ...options });
  const reverseTransaction = (transactionId: unknown, reason: unknown = 'entered twice', headers: Record<string, string> = {}) =>
    call('/api/v1/transactions/reversals', { method: 'POST', body: { transactionId, reason }, headers });
  const reversePayment = (path: string, reason: unknown = 'entered twice') => call(`${path}/reverse`, { method: 'POST', body: { reason } });

  it('a transaction is reversed once by a linked opposite one, in one commit with its event', async () => {
    const original = await fixtures(system).transaction({ amount: -4_321, notes: 'lab fee', studentId: DEMO_STUDENT_ID });
    const before = await financeCounts(system);

    const reversed = await reverseTransaction(original.id, '  charged twice  ');
    expect(reversed.status).toBe(201);
    expect(reversed.headers.get('location')).toBe(`/api/v1/transactions/${reversed.body.id}`);
    expect(reversed.headers.get('etag')).toBe('"1"');
    expect(reversed.body).toMatchObject({
      amount: 4_321,
      reversalOf: original.id,
      reversedBy: null,
      notes: 'charged twice',
      date: today(),
      payee: original.payee,
      accountId: original.accountId,
      categoryId: original.categoryId,
      studentId: DEMO_STUDENT_ID,
    });
    const after = await financeCounts(system);
    expect(after.transactions - before.transactions).toBe(1);
    expect(await outboxActionsSince(system, before.outbox)).toEqual([{ action: 'transaction.reversed', entityIds: [reversed.body.id] }]);

    // Both show what they are, one by one and in the list, to staff and to the student they belong to.
    expect((await call(`/api/v1/transactions/${original.id}`)).body).toMatchObject({ reversedBy: reversed.body.id, reversalOf: null, amount: -4_321 });
    for (const key of [system.keys.bursar, system.keys.student]) {
      const listed = await walkTransactions(system, key);
      expect(listed.get(original.id)).toMatchObject({ reversedBy: reversed.body.id, reversalOf: null });
      expect(listed.get(reversed.body.id)).toMatchObject({ reversalOf: original.id, reversedBy: null });
    }

    // Reversing twice, or reversing the reversal, is a 409 that writes nothing.
    const again = await reverseTransaction(original.id);
    expect(again.status).toBe(409);
    expect(again.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((await reverseTransaction(reversed.body.id)).status).toBe(409);
    // Neither changes any more: a correction of a correction is a new transaction.
    const patched = await call(`/api/v1/transactions/${original.id}`, { method: 'PATCH', body: { amount: -1 } });
    expect(patched.status).toBe(409);
    expect((await call(`/api/v1/transactions/${reversed.body.id}`, { method: 'PATCH', body: { notes: 'x' } })).status).toBe(409);
    expect(await financeCounts(system)).toEqual(after);

    const entry = await waitFor('the transaction.reversed audit entry', async () => {
      const { body } = await call(`/api/v1/audit?action=transaction.reversed&entityId=${reversed.body.id}`, { key: system.keys.admin });
      return body.entries[0];
    });
    expect(entry).toMatchObject({ actor: { role: 'bursar' }, before: null, after: reversed.body });
  });

  it('refuses a bad reason, an unknown transaction and a student, writing nothing', async () => {
    const original = await fixtures(system).transaction();
    const before = await financeCounts(system);
    const path = '/api/v1/transactions/reversals';
    for (const reason of ['', '   ', 'x'.repeat(1_001), 'a\u0000b', 42]) {
      const refused = await reverseTransaction(original.id, reason);
      expect({ reason, status: refused.status }).toEqual({ reason, status: 400 });
      expect(refused.body.errors[0].field).toBe('reason');
    }
    expect((await call(path, { method: 'POST', body: { transactionId: original.id } })).status).toBe(400);
    expect((await call(path, { method: 'POST', body: { transactionId: original.id, reason: 'r', extra: 1 } })).status).toBe(400);
    // The transaction is named in the body: one that does not exist is a 400 naming the field, as elsewhere.
    for (const transactionId of [randomUUID(), 'not-a-uuid']) {
      const refused = await reverseTransaction(transactionId);
      expect({ status: refused.status, field: refused.body.errors[0].field }).toEqual({ status: 400, field: 'transactionId' });
    }
    expect((await call(path, { method: 'POST', key: system.keys.student, body: { transactionId: original.id, reason: 'mine' } })).status).toBe(403);
    expect(await financeCounts(system)).toEqual(before);
  });

  it('of concurrent reversals exactly one wins; a repeated Idempotency-Key answers the first reversal', async () => {
    // A request that waited on the row lock must see the reversal committed meanwhile (transaction-store.ts, lockRows).
    for (let round = 0; round < 3; round++) {
      const original = await fixtures(system).transaction({ amount: 777 });
      const before = await financeCounts(system);
      const responses = await Promise.all(Array.from({ length: 8 }, (_, i) => reverseTransaction(original.id, `attempt ${i}`)));
      expect(responses.map((r) => r.status).sort()).toEqual([201, ...Array(7).fill(409)]);
      expect((await financeCounts(system)).transactions - before.transactions).toBe(1);
    }

    // An update racing a reversal either lands first (and is reversed) or is refused: the pair always cancels out.
    for (let round = 0; round < 3; round++) {
      const original = await fixtures(system).transaction({ amount: -500 });
      const [patched, reversed] = await Promise.all([
        call(`/api/v1/transactions/${original.id}`, { method: 'PATCH', body: { amount: -900 } }),
        reverseTransaction(original.id),
      ]);
      expect(reversed.status).toBe(201);
      expect([200, 409]).toContain(patched.status);
      const final = (await call(`/api/v1/transactions/${original.id}`)).body;
      expect(final.amount + reversed.body.amount).toBe(0);
    }

    const keyed = await fixtures(system).transaction({ amount: 778 });
    const headers = { 'Idempotency-Key': randomUUID() };
    const first = await reverseTransaction(keyed.id, 'once', headers);
    const replay = await reverseTransaction(keyed.id, 'once', headers);
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect((await reverseTransaction(keyed.id, 'another reason', headers)).status).toBe(409);
  });

  it('a reversed transaction is deleted only after, or with, its reversal', async () => {
    const admin = (path: string, method: string, body?: unknown) => call(path, { method, body, key: system.keys.admin });
    const one = await fixtures(system).transaction();
    const reversalOfOne = (await reverseTransaction(one.id)).body;
    expect((await admin(`/api/v1/transactions/${one.id}`, 'DELETE')).status).toBe(409);
    expect((await admin('/api/v1/transactions/bulk-delete', 'POST', [one.id])).status).toBe(409);
    expect((await admin(`/api/v1/transactions/${reversalOfOne.id}`, 'DELETE')).status).toBe(200);
    expect((await admin(`/api/v1/transactions/${one.id}`, 'GET')).body.reversedBy).toBeNull();
    expect((await admin(`/api/v1/transactions/${one.id}`, 'DELETE')).status).toBe(200);

    const two = await fixtures(system).transaction();
    const reversalOfTwo = (await reverseTransaction(two.id)).body;
    expect((await admin('/api/v1/transactions/bulk-delete', 'POST', [two.id, reversalOfTwo.id])).status).toBe(200);
  });

  it('an accepted payment is reversed by a linked debit line and becomes reversed; anything else is a 409', async () => {
    const student = await fixtures(system).student();
    const statementPath = `/api/v1/finance/students/${student.id}/statement`;
    const payment = await fixtures(system).pendingPayment(student.id, 52_000);
    const path = `/api/v1/transactions/payments/${payment.id}`;

    // Pending: nothing to take back.
    expect((await reversePayment(path)).status).toBe(409);
    expect((await call(path, { method: 'PATCH', body: { outcome: 'accepted' } })).status).toBe(200);
    const credited = (await call(statementPath)).body;
    expect(credited.balance).toBe(52_000);

    const before = await financeCounts(system);
    const reversed = await reversePayment(path, 'transfer bounced');
    expect(reversed.status).toBe(200);
    expect(reversed.body).toMatchObject({
      status: 'reversed',
      outcome: 'accepted',
      reversalReason: 'transfer bounced',
      reversedBy: expect.any(String),
      reversedAt: expect.any(String),
    });
    expect(await outboxActionsSince(system, before.outbox)).toEqual([{ action: 'payment.reversed', entityIds: [payment.id] }]);

    const statement = (await call(statementPath)).body;
    const [credit, debit] = statement.lines as Line[];
    expect(statement.lines).toHaveLength(2);
    expect(credit).toMatchObject({ credit: 52_000, debit: 0, reversalOf: null });
    expect(debit).toMatchObject({ debit: 52_000, credit: 0, reversalOf: credit.id, description: 'Payment reversed: transfer bounced', date: today() });
    expect(statement.balance).toBe(0);

    // Once reversed, nothing moves it again.
    const after = await financeCounts(system);
    expect((await reversePayment(path)).status).toBe(409);
    expect((await call(`${path}/resolve`, { method: 'PATCH' })).status).toBe(409);
    expect((await call(path, { method: 'PATCH', body: { outcome: 'rejected' } })).status).toBe(409);
    expect(await financeCounts(system)).toEqual(after);
    expect((await call(`/api/v1/transactions/payments?status=reversed&studentId=${student.id}`)).body.payments.map((p: { id: string }) => p.id)).toEqual([
      payment.id,
    ]);

    const entry = await waitFor('the payment.reversed audit entry', async () => {
      const { body } = await call(`/api/v1/audit?action=payment.reversed&entityId=${payment.id}`, { key: system.keys.admin });
      return body.entries[0];
    });
    expect(entry).toMatchObject({ actor: { role: 'bursar' }, after: reversed.body });
  });

  it('a resolved accepted payment can be reversed; a rejected one cannot; concurrent reversals debit once', async () => {
    const student = await fixtures(system).student();
    const resolved = await fixtures(system).pendingPayment(student.id, 1_000);
    await call(`/api/v1/transactions/payments/${resolved.id}`, { method: 'PATCH', body: { outcome: 'accepted' } });
    await call(`/api/v1/transactions/payments/${resolved.id}/resolve`, { method: 'PATCH' });
    const attempts = await Promise.all(Array.from({ length: 6 }, () => reversePayment(`/api/v1/transactions/payments/${resolved.id}`, 'forged slip')));
    expect(attempts.map((r) => r.status).sort()).toEqual([200, ...Array(5).fill(409)]);
    const statement = (await call(`/api/v1/finance/students/${student.id}/statement`)).body;
    expect(statement.lines.map((l: Line) => [l.credit, l.debit])).toEqual([
      [1_000, 0],
      [0, 1_000],
    ]);

    const rejected = await fixtures(system).processedPayment();
    expect((await reversePayment(`/api/v1/transactions/payments/${rejected.id}`)).status).toBe(409);
    expect((await reversePayment(`/api/v1/transactions/payments/${randomUUID()}`)).status).toBe(404);
    expect((await call(`/api/v1/transactions/payments/${rejected.id}/reverse`, { method: 'POST', key: system.keys.student, body: { reason: 'r' } })).status).toBe(403);
  });
});

/** Every transaction the key can list, by id, walking the cursor. */
async function walkTransactions(system: RunningSystem, key: string) {
  const all = new Map<string, Record<string, unknown>>();
  let cursor = '';
  do {
    const page = await api(system.gatewayUrl, `/api/v1/transactions?limit=500${cursor ? `&cursor=${cursor}` : ''}`, { key });
    for (const t of page.body.transactions) all.set(t.id, t);
    cursor = page.body.nextCursor ?? '';
  } while (cursor);
  return all;
}
