import { z } from 'zod';
import { FINANCE_LIMITS, financeApi } from '@libs/contracts';
import { idempotentWrite } from '../platform/routing/headers';
import { operation } from '../platform/routing/operation';
import { cursor, queryChoice, queryInteger, queryOf } from '../platform/routing/query-fields';
import { etagHeader, json, page, problem, locationHeader } from '../platform/routing/responses';
import { ids, payment, transaction } from './schemas';

/** Transactions and proofs of payment (docs/FINANCE.md). */

const tag = 'Finance';
const byId = (what: string) => z.object({ id: financeApi.uuid.meta({ description: `${what} id.` }) });
const limit = queryInteger(FINANCE_LIMITS.page).meta({ description: 'Page size.' });
const conflictOnKey = { '409': problem('The Idempotency-Key was used with another request.') };
const paymentMove = (description: string) => ({
  '200': json(description, payment),
  '404': problem('No such payment (or not yours).'),
  '409': problem('Not allowed from the payment’s status: pending → processed → resolved.'),
});

export const listTransactions = operation({
  method: 'get',
  path: '/api/v1/transactions',
  operationId: 'listTransactions',
  summary: 'Transactions in (date, id) order; a student sees only their own',
  tag,
  access: { key: 'finance:read' },
  request: {
    query: z.object({
      from: queryOf(financeApi.isoDate).optional().meta({ description: 'Inclusive first date, YYYY-MM-DD.' }),
      to: queryOf(financeApi.isoDate).optional().meta({ description: 'Inclusive last date, YYYY-MM-DD.' }),
      accountId: queryOf(financeApi.uuid).optional().meta({ description: 'Only this account.' }),
      limit,
      cursor,
    }),
  },
  responses: { '200': json('A page of transactions.', page('transactions', transaction)) },
});

export const createTransaction = operation({
  method: 'post',
  path: '/api/v1/transactions',
  operationId: 'createTransaction',
  summary: 'Create a transaction',
  description: 'The account, category and student must exist (else 400 naming the field). Writes one audit event.',
  tag,
  access: { key: 'finance:write' },
  request: { headers: idempotentWrite, body: financeApi.newTransaction },
  responses: {
    '201': json('Created; `Location` names it.', transaction, { ...etagHeader, ...locationHeader }),
    '413': problem('The body is over the size limit.'),
    '415': problem('The body is not JSON.'),
    ...conflictOnKey,
  },
});

export const bulkCreateTransactions = operation({
  method: 'post',
  path: '/api/v1/transactions/bulk-create',
  operationId: 'bulkCreateTransactions',
  summary: `Create up to ${FINANCE_LIMITS.bulkItems} transactions, all or nothing`,
  description: 'A bad item fails the whole request with a 400 naming its index (`[417].categoryId`). One audit event lists every id.',
  tag,
  access: { key: 'finance:write' },
  request: { headers: idempotentWrite, body: financeApi.bulkCreate },
  responses: { '201': json('The new ids, in input order.', ids), ...conflictOnKey },
});

export const bulkDeleteTransactions = operation({
  method: 'post',
  path: '/api/v1/transactions/bulk-delete',
  operationId: 'bulkDeleteTransactions',
  summary: `Delete up to ${FINANCE_LIMITS.bulkItems} transactions, all or nothing`,
  tag,
  access: { key: 'finance:delete' },
  request: { headers: idempotentWrite, body: financeApi.bulkDelete },
  responses: { '200': json('The deleted ids.', ids), ...conflictOnKey },
});

export const getTransaction = operation({
  method: 'get',
  path: '/api/v1/transactions/{id}',
  operationId: 'getTransaction',
  summary: 'One transaction',
  tag,
  access: { key: 'finance:read' },
  request: { path: byId('Transaction') },
  responses: {
    '200': json('The transaction.', transaction, etagHeader),
    '404': problem('No such transaction (or not yours).'),
  },
});

export const updateTransaction = operation({
  method: 'patch',
  path: '/api/v1/transactions/{id}',
  operationId: 'updateTransaction',
  summary: 'Change some fields of a transaction',
  tag,
  access: { key: 'finance:write' },
  request: { path: byId('Transaction'), body: financeApi.transactionPatch },
  ifMatch: true,
  responses: {
    '200': json('The updated transaction, with its new ETag.', transaction, etagHeader),
    '404': problem('No such transaction.'),
  },
});

export const deleteTransaction = operation({
  method: 'delete',
  path: '/api/v1/transactions/{id}',
  operationId: 'deleteTransaction',
  summary: 'Delete a transaction',
  tag,
  access: { key: 'finance:delete' },
  request: { path: byId('Transaction') },
  responses: {
    '200': json('The deleted id.', z.object({ id: z.guid() })),
    '404': problem('No such transaction.'),
  },
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
