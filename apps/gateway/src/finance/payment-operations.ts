import { z } from 'zod';
import { financeApi } from '@libs/contracts';
import { conflictOnKey, idempotentWrite } from '../platform/routing/headers';
import { operation } from '../platform/routing/operation';
import { byId } from '../platform/routing/path-ids';
import { cursor, queryChoice, queryOf } from '../platform/routing/query-fields';
import { json, page, problem, locationHeader } from '../platform/routing/responses';
import { limit, tag } from './finance-operation-parts';
import { payment } from './schemas';

/** Proofs of payment under /api/v1/transactions/payments: a student submits, a bursar processes and resolves (docs/FINANCE.md). */

const paymentMove = (description: string) => ({
  '200': json(description, payment),
  '404': problem('No such payment (or not yours).'),
  '409': problem('Not allowed from the payment’s status: pending → processed → resolved; an accepted one → reversed.'),
});

export const listPayments = operation({
  method: 'get',
  path: '/api/v1/transactions/payments',
  operationId: 'listPayments',
  summary: 'Proofs of payment, oldest first; a student sees only their own',
  tag,
  access: { key: 'finance:read' },
  request: {
    query: z.object({
      status: queryChoice(financeApi.PAYMENT_STATUSES).optional().meta({ description: 'Only this status.' }),
      studentId: queryOf(financeApi.uuid).optional().meta({ description: 'Only this student.' }),
      limit,
      cursor,
    }),
  },
  responses: { '200': json('A page of payments.', page('payments', payment)) },
});

export const submitPayment = operation({
  method: 'post',
  path: '/api/v1/transactions/payments',
  operationId: 'submitPayment',
  summary: 'Submit a proof of payment (pending)',
  description: 'A student submits for themselves (`studentId` may be left out); bursars and admins name the student.',
  tag,
  access: { key: 'payments:submit' },
  request: { headers: idempotentWrite, body: financeApi.paymentSubmission },
  responses: { '201': json('The payment, pending; `Location` names it.', payment, locationHeader), ...conflictOnKey },
});

export const processPayment = operation({
  method: 'patch',
  path: '/api/v1/transactions/payments/{id}',
  operationId: 'processPayment',
  summary: 'Process a pending payment: accepted or rejected',
  description: "An accepted payment credits the student's statement in the same database transaction.",
  tag,
  access: { key: 'finance:write' },
  request: { path: byId('Payment'), body: financeApi.paymentProcessing },
  responses: paymentMove('The payment, now processed.'),
});

export const resolvePayment = operation({
  method: 'patch',
  path: '/api/v1/transactions/payments/{id}/resolve',
  operationId: 'resolvePayment',
  summary: 'Resolve a processed payment',
  tag,
  access: { key: 'finance:write' },
  request: { path: byId('Payment'), body: financeApi.paymentResolution.optional() },
  responses: paymentMove('The payment, now resolved.'),
});

export const reversePayment = operation({
  method: 'post',
  path: '/api/v1/transactions/payments/{id}/reverse',
  operationId: 'reversePayment',
  summary: 'Reverse an accepted payment',
  description:
    "For a payment accepted by mistake (a bounced transfer, a forged slip): it becomes `reversed`, and a debit line linked to its credit " +
    "(`reversalOf`) is added to the student's statement, dated today (UTC), in the same database transaction. One audit event (`payment.reversed`).",
  tag,
  access: { key: 'finance:write' },
  request: { path: byId('Payment'), headers: idempotentWrite, body: financeApi.reversal },
  responses: paymentMove('The payment, now reversed.'),
});
