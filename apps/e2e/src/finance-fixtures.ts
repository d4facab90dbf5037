import type { RunningSystem } from '@libs/testing';
import { upload } from './files/file-requests';
import { pdf, uploadForm } from './files/sample-files';
import { api, validTransaction } from './http';

/** The demo student's records that finance seeds (apps/finance/src/demo-data.ts). */
export const DEMO_STUDENT_ID = '00000000-0000-4000-8000-00000000e001';
export const DEMO_STUDENT_TRANSACTION_ID = '00000000-0000-4000-8000-0000000a1001';
export const DEMO_PENDING_PAYMENT_ID = '00000000-0000-4000-8000-00000000f001';

const expectStatus = (what: string, response: { status: number; body: unknown }, status: number) => {
  if (response.status !== status) throw new Error(`${what}: expected ${status}, got ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as { id: string; [field: string]: unknown };
};

/** Finance records made through the API by an admin, for tests that need fresh ones. */
export function fixtures(system: RunningSystem) {
  const admin = system.keys.admin;
  const call = (path: string, method: string, body?: unknown) => api(system.gatewayUrl, path, { method, key: admin, body });
  return {
    async transaction(overrides: Record<string, unknown> = {}) {
      return expectStatus('create transaction', await call('/api/v1/transactions', 'POST', validTransaction(overrides)), 201);
    },
    async category() {
      return expectStatus('create category', await call('/api/v1/finance/categories', 'POST', { name: `Category ${Math.random()}` }), 201);
    },
    async student() {
      const number = `REG-${Math.random().toString(36).slice(2, 10)}`;
      const registration = expectStatus('create registration number', await call('/api/v1/finance/registration-numbers', 'POST', { number }), 201);
      return expectStatus('create student', await call('/api/v1/finance/students', 'POST', { registrationNumberId: registration.id }), 201);
    },
    async pendingPayment(studentId = DEMO_STUDENT_ID, amount = 10_000) {
      const body = { studentId, amount, date: '2026-10-01', description: 'Bank transfer' };
      return expectStatus('submit payment', await call('/api/v1/transactions/payments', 'POST', body), 201);
    },
    async processedPayment() {
      const payment = await this.pendingPayment();
      const path = `/api/v1/transactions/payments/${payment.id}`;
      return expectStatus('process payment', await call(path, 'PATCH', { outcome: 'rejected' }), 200);
    },
    /** A pending payment with one PDF attached: the path of that file. */
    async paymentFilePath(studentId = DEMO_STUDENT_ID) {
      const file = expectStatus('upload file', await upload(system, admin, uploadForm(pdf(), 'slip.pdf')), 201);
      const body = { studentId, amount: 10_000, date: '2026-10-01', fileIds: [file.id] };
      const payment = expectStatus('submit payment', await call('/api/v1/transactions/payments', 'POST', body), 201);
      return `/api/v1/transactions/payments/${payment.id}/files/${file.id}`;
    },
    async acceptedPayment(studentId = DEMO_STUDENT_ID, amount = 10_000) {
      const payment = await this.pendingPayment(studentId, amount);
      const path = `/api/v1/transactions/payments/${payment.id}`;
      return expectStatus('accept payment', await call(path, 'PATCH', { outcome: 'accepted' }), 200);
    },
  };
}
