import { ROLES, type Role } from '@libs/contracts';
import { startSystem, type RunningSystem } from '@libs/testing';
import { DEMO_PENDING_PAYMENT_ID, DEMO_STUDENT_ID, DEMO_STUDENT_TRANSACTION_ID, fixtures } from './finance-fixtures';
import { api, DEMO_ACCOUNT_ID, validTransaction } from './http';

interface Case {
  name: string;
  method: string;
  /** Built per call, so a role that may mutate gets a fresh record each time. */
  path: (f: ReturnType<typeof fixtures>) => Promise<string> | string;
  body?: () => unknown;
  /** A body sent as it is (with its Content-Type in `headers`): a multipart upload. */
  rawBody?: string;
  headers?: Record<string, string>;
  expected: Record<Role, number>;
}

const readAll = { reader: 403, clinician: 403, student: 200, bursar: 200, admin: 200 };
const staffRead = { reader: 403, clinician: 403, student: 403, bursar: 200, admin: 200 };
const staffWrite = (status: number) => ({ reader: 403, clinician: 403, student: 403, bursar: status, admin: status });
const adminOnly = { reader: 403, clinician: 403, student: 403, bursar: 403, admin: 200 };

// Every finance endpoint, with what each role gets (docs/FINANCE.md, Roles; a clinician has no finance access).
// A student reads only their own records: another student's is a 404, exactly like a missing one.
const CASES: Case[] = [
  { name: 'list transactions', method: 'GET', path: () => '/api/v1/transactions', expected: readAll },
  { name: 'get own transaction', method: 'GET', path: () => `/api/v1/transactions/${DEMO_STUDENT_TRANSACTION_ID}`, expected: readAll },
  {
    name: "get someone else's transaction",
    method: 'GET',
    path: async (f) => `/api/v1/transactions/${(await f.transaction()).id}`,
    expected: { ...readAll, student: 404 },
  },
  { name: 'create transaction', method: 'POST', path: () => '/api/v1/transactions', body: () => validTransaction(), expected: staffWrite(201) },
  {
    name: 'update transaction',
    method: 'PATCH',
    path: async (f) => `/api/v1/transactions/${(await f.transaction()).id}`,
    body: () => ({ payee: 'Updated payee' }),
    headers: { 'if-match': '"1"' },
    expected: staffWrite(200),
  },
  { name: 'delete transaction', method: 'DELETE', path: async (f) => `/api/v1/transactions/${(await f.transaction()).id}`, expected: adminOnly },
  {
    name: 'bulk-create transactions',
    method: 'POST',
    path: () => '/api/v1/transactions/bulk-create',
    body: () => [validTransaction(), validTransaction({ amount: 5 })],
    expected: staffWrite(201),
  },
  {
    name: 'bulk-delete transactions',
    method: 'POST',
    path: async (f) => {
      bulkIds = [(await f.transaction()).id, (await f.transaction()).id];
      return '/api/v1/transactions/bulk-delete';
    },
    body: () => bulkIds,
    expected: adminOnly,
  },
  {
    name: 'reverse transaction',
    method: 'POST',
    path: async (f) => {
      reversedId = (await f.transaction()).id;
      return '/api/v1/transactions/reversals';
    },
    body: () => ({ transactionId: reversedId, reason: 'entered twice' }),
    expected: staffWrite(201),
  },
  { name: 'list payments', method: 'GET', path: () => '/api/v1/transactions/payments', expected: readAll },
  {
    name: 'submit payment',
    method: 'POST',
    path: () => '/api/v1/transactions/payments',
    body: () => ({ studentId: DEMO_STUDENT_ID, amount: 2_500, date: '2026-10-02' }),
    expected: { reader: 403, clinician: 403, student: 201, bursar: 201, admin: 201 },
  },
  {
    name: 'process payment',
    method: 'PATCH',
    path: async (f) => `/api/v1/transactions/payments/${(await f.pendingPayment()).id}`,
    body: () => ({ outcome: 'accepted' }),
    expected: staffWrite(200),
  },
  {
    name: 'resolve payment',
    method: 'PATCH',
    path: async (f) => `/api/v1/transactions/payments/${(await f.processedPayment()).id}/resolve`,
    body: () => ({}),
    expected: staffWrite(200),
  },
  {
    name: 'reverse accepted payment',
    method: 'POST',
    path: async (f) => `/api/v1/transactions/payments/${(await f.acceptedPayment()).id}/reverse`,
    body: () => ({ reason: 'transfer bounced' }),
    expected: staffWrite(200),
  },
  {
    name: 'own receipt',
    method: 'GET',
    path: async (f) => `/api/v1/transactions/payments/${(await f.acceptedPayment()).id}/receipt`,
    expected: readAll,
  },
  {
    name: "another student's receipt",
    method: 'GET',
    path: async (f) => `/api/v1/transactions/payments/${(await f.acceptedPayment((await f.student()).id)).id}/receipt`,
    expected: { ...readAll, student: 404 },
  },
  {
    name: 'upload a file',
    method: 'POST',
    path: () => '/api/v1/files',
    rawBody:
      '--b\r\nContent-Disposition: form-data; name="purpose"\r\n\r\npayment_proof\r\n' +
      '--b\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4\n%%EOF\n\r\n--b--\r\n',
    headers: { 'content-type': 'multipart/form-data; boundary=b' },
    expected: { reader: 403, clinician: 403, student: 201, bursar: 201, admin: 201 },
  },
  { name: "own payment's file", method: 'GET', path: (f) => f.paymentFilePath(), expected: readAll },
  {
    name: "another student's payment's file",
    method: 'GET',
    path: async (f) => f.paymentFilePath((await f.student()).id),
    expected: { ...readAll, student: 404 },
  },
  { name: 'export transactions', method: 'GET', path: () => '/api/v1/transactions/export?from=2999-12-01', expected: readAll },
  { name: 'list accounts', method: 'GET', path: () => '/api/v1/finance/accounts', expected: staffRead },
  { name: 'get account', method: 'GET', path: () => `/api/v1/finance/accounts/${DEMO_ACCOUNT_ID}`, expected: staffRead },
  {
    name: 'create account',
    method: 'POST',
    path: () => '/api/v1/finance/accounts',
    body: () => ({ name: 'Hardship fund' }),
    expected: staffWrite(201),
  },
  {
    name: 'update account',
    method: 'PATCH',
    path: () => `/api/v1/finance/accounts/${DEMO_ACCOUNT_ID}`,
    body: () => ({ name: 'University fees account' }),
    headers: { 'if-match': '*' },
    expected: staffWrite(200),
  },
  { name: 'list categories', method: 'GET', path: () => '/api/v1/finance/categories', expected: staffRead },
  {
    name: 'create category',
    method: 'POST',
    path: () => '/api/v1/finance/categories',
    body: () => ({ name: `Category ${Math.random()}` }),
    expected: staffWrite(201),
  },
  {
    name: 'update category',
    method: 'PATCH',
    path: async (f) => `/api/v1/finance/categories/${(await f.category()).id}`,
    body: () => ({ name: `Renamed ${Math.random()}` }),
    headers: { 'if-match': '"1"' },
    expected: staffWrite(200),
  },
  { name: 'list registration numbers', method: 'GET', path: () => '/api/v1/finance/registration-numbers', expected: staffRead },
  {
    name: 'create registration number',
    method: 'POST',
    path: () => '/api/v1/finance/registration-numbers',
    body: () => ({ number: `R-${Math.random()}` }),
    expected: staffWrite(201),
  },
  { name: 'list students', method: 'GET', path: () => '/api/v1/finance/students', expected: readAll },
  { name: 'get own student record', method: 'GET', path: () => `/api/v1/finance/students/${DEMO_STUDENT_ID}`, expected: readAll },
  {
    name: "get another student's record",
    method: 'GET',
    path: async (f) => `/api/v1/finance/students/${(await f.student()).id}`,
    expected: { ...readAll, student: 404 },
  },
  {
    name: 'update student',
    method: 'PATCH',
    path: async (f) => `/api/v1/finance/students/${(await f.student()).id}`,
    body: () => ({ currentProgramLevelId: 'year-3' }),
    headers: { 'if-match': '"1"' },
    expected: staffWrite(200),
  },
  { name: 'own statement', method: 'GET', path: () => `/api/v1/finance/students/${DEMO_STUDENT_ID}/statement`, expected: readAll },
  { name: 'own statement as PDF', method: 'GET', path: () => `/api/v1/finance/students/${DEMO_STUDENT_ID}/statement?format=pdf`, expected: readAll },
  {
    name: 'add a statement line',
    method: 'POST',
    path: () => `/api/v1/finance/students/${DEMO_STUDENT_ID}/statement`,
    body: () => ({ date: '2026-09-20', description: 'Library fine', debit: 500 }),
    expected: staffWrite(201),
  },
  {
    name: "another student's statement",
    method: 'GET',
    path: async (f) => `/api/v1/finance/students/${(await f.student()).id}/statement`,
    expected: { ...readAll, student: 404 },
  },
];
let bulkIds: string[] = [];
let reversedId = '';

describe('finance roles: every role against every finance endpoint', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem();
  }, 90_000);
  afterAll(() => system?.shutdown());

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, testCase) => {
    const seen: Record<string, number> = {};
    for (const role of ROLES) {
      const path = await testCase.path(fixtures(system));
      const response = await api(system.gatewayUrl, path, {
        method: testCase.method,
        key: system.keys[role],
        body: testCase.body?.(),
        rawBody: testCase.rawBody,
        headers: testCase.headers,
      });
      seen[role] = response.status;
    }
    expect(seen).toEqual(testCase.expected);
  });

  it('shows the demo student only their own transactions, payments and student record', async () => {
    await fixtures(system).transaction();
    const key = system.keys.student;
    const transactions = await api(system.gatewayUrl, '/api/v1/transactions?limit=500', { key });
    expect(transactions.body.transactions.length).toBeGreaterThan(0);
    expect(new Set(transactions.body.transactions.map((t: { studentId: string }) => t.studentId))).toEqual(new Set([DEMO_STUDENT_ID]));
    const payments = await api(system.gatewayUrl, '/api/v1/transactions/payments?limit=500', { key });
    expect(payments.body.payments.map((p: { id: string }) => p.id)).toContain(DEMO_PENDING_PAYMENT_ID);
    expect(new Set(payments.body.payments.map((p: { studentId: string }) => p.studentId))).toEqual(new Set([DEMO_STUDENT_ID]));
    const students = await api(system.gatewayUrl, '/api/v1/finance/students', { key });
    expect(students.body.items.map((s: { id: string }) => s.id)).toEqual([DEMO_STUDENT_ID]);
  });
});
