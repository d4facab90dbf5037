import { EVENT_TYPES } from '@libs/contracts';
import { startSystem, waitFor, type RunningSystem } from '@libs/testing';
import { allAuditEntries } from './audit-helpers';
import { api, validTransaction } from './http';

/**
 * An entity looks the same in the audit log as in the API: every action finance audits is made
 * through the API, and its entry's before/after must equal the bodies the API answered.
 */
describe('audit before/after have the shape of the API', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem();
  }, 90_000);
  afterAll(() => system?.shutdown());

  const call = async (path: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}) => {
    const response = await api(system.gatewayUrl, path, { method, key: system.keys.admin, body, headers });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };

  /** The entry of `action` about `id`, once the audit service has stored it. */
  const entryOf = (action: string, id: string) =>
    waitFor(`the ${action} entry of ${id}`, async () => {
      const entries = await allAuditEntries(system, `action=${action}&entityId=${id}`);
      return entries.length === 1 ? entries[0] : undefined;
    });

  /**
   * The entry's before and after are exactly these API bodies: no field more, none less, none of another type. Its
   * action is a declared event type (what webhooks subscribe to), of this entity.
   */
  const expectSnapshots = async (action: string, id: string, snapshots: { before?: unknown; after?: unknown }) => {
    const entry = await entryOf(action, id);
    expect(EVENT_TYPES[entry.action as keyof typeof EVENT_TYPES]).toEqual(expect.objectContaining({ entityType: entry.entityType }));
    expect({ action, before: entry.before, after: entry.after }).toEqual({ action, before: null, after: null, ...snapshots });
  };

  it('transactions: created, updated and deleted, one by one and in bulk', async () => {
    const path = '/api/v1/transactions';
    const created = await call(path, 'POST', validTransaction({ notes: 'no student' }));
    expect(created.studentId).toBeNull();
    await expectSnapshots('transaction.created', created.id, { after: created });

    const updated = await call(`${path}/${created.id}`, 'PATCH', { amount: -99, notes: 'corrected' }, { 'if-match': '*' });
    await expectSnapshots('transaction.updated', created.id, { before: created, after: updated });

    await call(`${path}/${created.id}`, 'DELETE');
    await expectSnapshots('transaction.deleted', created.id, { before: updated });

    const { ids } = await call(`${path}/bulk-create`, 'POST', [validTransaction({ amount: 1 }), validTransaction({ amount: -2 })]);
    const shown = [await call(`${path}/${ids[0]}`), await call(`${path}/${ids[1]}`)];
    await expectSnapshots('transaction.bulk_created', ids[0], { after: shown });

    await call(`${path}/bulk-delete`, 'POST', ids);
    // Finance locks the rows in id order, and records them in that order.
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
    await expectSnapshots('transaction.bulk_deleted', ids[0], { before: [...shown].sort(byId) });

    const reversed = await call(path, 'POST', validTransaction({ amount: -3 }));
    const reversal = await call(`${path}/reversals`, 'POST', { transactionId: reversed.id, reason: 'entered twice' });
    expect(reversal).toMatchObject({ reversalOf: reversed.id, amount: 3 });
    await expectSnapshots('transaction.reversed', reversal.id, { after: reversal });
  });

  it('proofs of payment and the statement line an accepted one adds', async () => {
    const registration = await call('/api/v1/finance/registration-numbers', 'POST', { number: 'REG-SHAPE-1' });
    await expectSnapshots('registration_number.created', registration.id, { after: registration });
    const student = await call('/api/v1/finance/students', 'POST', { registrationNumberId: registration.id });
    expect(student).toMatchObject({ userId: null, currentProgramLevelId: null });
    await expectSnapshots('student.created', student.id, { after: student });
    const movedStudent = await call(`/api/v1/finance/students/${student.id}`, 'PATCH', { currentProgramLevelId: 'Y1' }, { 'if-match': '*' });
    await expectSnapshots('student.updated', student.id, { before: student, after: movedStudent });

    const submitted = await call('/api/v1/transactions/payments', 'POST', {
      studentId: student.id,
      amount: 50_000,
      date: '2026-09-01',
      description: 'Bank transfer',
    });
    expect(submitted).toMatchObject({ outcome: null, processedAt: null });
    await expectSnapshots('payment.submitted', submitted.id, { after: submitted });
    const processed = await call(`/api/v1/transactions/payments/${submitted.id}`, 'PATCH', { outcome: 'accepted' });
    await expectSnapshots('payment.processed', submitted.id, { before: submitted, after: processed });
    const resolved = await call(`/api/v1/transactions/payments/${submitted.id}/resolve`, 'PATCH', { note: 'filed' });
    await expectSnapshots('payment.resolved', submitted.id, { before: processed, after: resolved });

    const charge = await call(`/api/v1/finance/students/${student.id}/statement`, 'POST', {
      date: '2026-09-02',
      description: 'Lab fees',
      debit: 12_500,
    });
    expect(charge).toMatchObject({ semesterId: null, debit: 12_500, credit: 0, balance: 37_500, reversalOf: null });
    await expectSnapshots('statement.line_added', charge.id, { after: charge });
    const reversed = await call(`/api/v1/transactions/payments/${submitted.id}/reverse`, 'POST', { reason: 'bounced' });
    await expectSnapshots('payment.reversed', submitted.id, { before: resolved, after: reversed });
  });

  it('accounts and categories', async () => {
    const account = await call('/api/v1/finance/accounts', 'POST', { name: 'Petty cash' });
    expect(account.userId).toBeNull();
    await expectSnapshots('account.created', account.id, { after: account });
    const renamed = await call(`/api/v1/finance/accounts/${account.id}`, 'PATCH', { name: 'Cash box' }, { 'if-match': '*' });
    await expectSnapshots('account.updated', account.id, { before: account, after: renamed });

    const category = await call('/api/v1/finance/categories', 'POST', { name: 'Shape test' });
    await expectSnapshots('category.created', category.id, { after: category });
    const recategorised = await call(`/api/v1/finance/categories/${category.id}`, 'PATCH', { name: 'Shape test 2' }, { 'if-match': '*' });
    await expectSnapshots('category.updated', category.id, { before: category, after: recategorised });
  });
});
