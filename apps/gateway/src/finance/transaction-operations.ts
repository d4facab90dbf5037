import { z } from 'zod';
import { FINANCE_LIMITS, financeApi } from '@libs/contracts';
import { conflictOnKey, idempotentWrite } from '../platform/routing/headers';
import { operation } from '../platform/routing/operation';
import { byId } from '../platform/routing/path-ids';
import { cursor, queryOf } from '../platform/routing/query-fields';
import { etagHeader, json, page, problem, locationHeader } from '../platform/routing/responses';
import { dateRange, limit, tag } from './finance-operation-parts';
import { ids, transaction } from './schemas';

/** Transactions (docs/FINANCE.md). */

export const listTransactions = operation({
  method: 'get',
  path: '/api/v1/transactions',
  operationId: 'listTransactions',
  summary: 'Transactions in (date, id) order; a student sees only their own',
  tag,
  access: { key: 'finance:read' },
  request: {
    query: z.object({
      ...dateRange,
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

export const reverseTransaction = operation({
  method: 'post',
  // Not /transactions/{id}/reverse: that path and /transactions/payments/{id} would match the same URLs (lint:openapi).
  path: '/api/v1/transactions/reversals',
  operationId: 'reverseTransaction',
  summary: 'Reverse a transaction with a linked opposite one',
  description:
    'Records, for the transaction `transactionId` names (400 if none), a transaction of the opposite amount, dated today (UTC), whose `reversalOf` names the original (whose `reversedBy` then names it); ' +
    'the reason becomes its notes. Writes one audit event (`transaction.reversed`). Reverse rather than delete once a transaction may have been ' +
    'seen outside the API (an export, a statement): the ledger keeps both.',
  tag,
  access: { key: 'finance:write' },
  request: { headers: idempotentWrite, body: financeApi.transactionReversal },
  responses: {
    '201': json('The reversal; `Location` names it.', transaction, { ...etagHeader, ...locationHeader }),
    '409': problem('Already reversed, or itself a reversal; or the Idempotency-Key was used with another request.'),
  },
});
