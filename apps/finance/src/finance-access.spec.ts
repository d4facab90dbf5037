import { randomUUID } from 'node:crypto';
import { DEMO_USER_IDS, type Role } from '@libs/contracts';
import { CursorCodec } from '@libs/cursor';
import { GrpcStatus, RpcError, type CallContext } from '@libs/grpc';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { DEMO_ACCOUNT_ID, DEMO_CATEGORY_IDS, DEMO_STUDENT_ID, seedDemoData } from './demo-data';
import { migrations } from './migrations';
import type { FinanceDeps } from './finance-deps';
import { paymentHandlers } from './payments/payment-handlers';
import { recordHandlers } from './records/record-handlers';
import { recordUpdateHandlers } from './records/record-updates';
import { statementHandlers } from './statements/statement-handlers';
import { bulkHandlers } from './transactions/bulk-handlers';
import { transactionHandlers } from './transactions/transaction-handlers';

const contextOf = (role: Role): CallContext => ({ requestId: 'access-spec', actor: { userId: DEMO_USER_IDS[role], role } });

async function codeOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return GrpcStatus.OK;
  } catch (error) {
    if (error instanceof RpcError) return error.code;
    throw error;
  }
}

/**
 * The finance service checks roles itself, not only the gateway: a call that
 * reaches it directly with a role lacking the right is refused before it reads
 * or writes anything.
 */
describe('finance handlers enforce roles from the call actor (PostgreSQL)', () => {
  let db: ScratchDatabase;
  let handlers: ReturnType<typeof transactionHandlers> &
    ReturnType<typeof bulkHandlers> &
    ReturnType<typeof paymentHandlers> &
    ReturnType<typeof recordHandlers> &
    ReturnType<typeof recordUpdateHandlers> &
    ReturnType<typeof statementHandlers>;

  beforeAll(async () => {
    db = await createScratchDatabase('finance', migrations);
    await seedDemoData(db.sequelize);
    const deps: FinanceDeps = { sequelize: db.sequelize, cursors: new CursorCodec('access-spec-secret-0123'), afterCommit: () => undefined };
    handlers = { ...transactionHandlers(deps), ...bulkHandlers(deps), ...paymentHandlers(deps), ...recordHandlers(deps), ...recordUpdateHandlers(deps), ...statementHandlers(deps) };
  });
  afterAll(() => db?.drop());

  const input = { studentId: '', date: '2026-09-01', categoryId: DEMO_CATEGORY_IDS.books, payee: 'Shop', amount: '-100', notes: '', accountId: DEMO_ACCOUNT_ID };
  const someId = randomUUID();
  const calls: [string, Role[], (context: CallContext) => Promise<unknown>][] = [
    ['updateAccount', ['reader', 'student'], (c) => handlers.updateAccount({ id: DEMO_ACCOUNT_ID, expectedVersion: 0, name: 'Fees' }, c)],
    ['createTransaction', ['reader', 'student'], (c) => handlers.createTransaction({ input, idempotencyKey: '' }, c)],
    ['updateTransaction', ['reader', 'student'], (c) => handlers.updateTransaction({ id: someId, expectedVersion: 0, payee: 'x' }, c)],
    ['deleteTransaction', ['reader', 'student', 'bursar'], (c) => handlers.deleteTransaction({ id: someId }, c)],
    ['bulkCreateTransactions', ['reader', 'student'], (c) => handlers.bulkCreateTransactions({ items: [input], idempotencyKey: '' }, c)],
    ['bulkDeleteTransactions', ['reader', 'student', 'bursar'], (c) => handlers.bulkDeleteTransactions({ ids: [someId], idempotencyKey: '' }, c)],
    ['listTransactions', ['reader'], (c) => handlers.listTransactions({ from: '', to: '', accountId: '', cursor: '', limit: 0 }, c)],
    ['listPayments', ['reader'], (c) => handlers.listPayments({ status: '', studentId: '', cursor: '', limit: 0 }, c)],
    ['submitPayment', ['reader'], (c) => handlers.submitPayment({ studentId: DEMO_STUDENT_ID, amount: '1', description: '', date: '2026-09-01', idempotencyKey: '', fileIds: [] }, c)],
    ['processPayment', ['reader', 'student'], (c) => handlers.processPayment({ id: someId, outcome: 'accepted', note: '' }, c)],
    ['resolvePayment', ['reader', 'student'], (c) => handlers.resolvePayment({ id: someId, note: '' }, c)],
    ['listAccounts', ['reader', 'student'], (c) => handlers.listAccounts({}, c)],
    ['createCategory', ['reader', 'student'], (c) => handlers.createCategory({ name: `c-${Math.random()}`, idempotencyKey: '' }, c)],
    ['listStudents', ['reader'], (c) => handlers.listStudents({}, c)],
    ['getStudentStatement', ['reader'], (c) => handlers.getStudentStatement({ studentId: DEMO_STUDENT_ID }, c)],
    [
      'addStatementLine',
      ['reader', 'student'],
      (c) =>
        handlers.addStatementLine(
          { studentId: DEMO_STUDENT_ID, semesterId: '', date: '2026-09-01', description: 'Fee', debit: '1', credit: '0', idempotencyKey: '' },
          c,
        ),
    ],
  ];

  it.each(calls)('%s refuses %j with PERMISSION_DENIED and lets the others through', async (_name, refused, call) => {
    for (const role of ['reader', 'student', 'bursar', 'admin'] as Role[]) {
      const code = await codeOf(call(contextOf(role)));
      expect({ role, denied: code === GrpcStatus.PERMISSION_DENIED }).toEqual({ role, denied: refused.includes(role) });
    }
  });

  it('refuses a call without an actor', async () => {
    expect(await codeOf(handlers.listTransactions({ from: '', to: '', accountId: '', cursor: '', limit: 0 }, { requestId: 'x' }))).toBe(
      GrpcStatus.UNAUTHENTICATED,
    );
  });
});
