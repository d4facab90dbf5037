import type { z } from 'zod';
import { toTransactionJson, type financeApi, type financeV1 } from '@libs/contracts';
import { route, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { sendRecord } from './finance-response';
import * as op from './transaction-operations';

/** A new transaction as the finance service takes it: amounts as decimal strings, absent values as ''. */
const toTransactionInput = (body: z.output<typeof financeApi.newTransaction>): financeV1.TransactionInput => ({
  studentId: body.studentId ?? '',
  date: body.date,
  categoryId: body.categoryId,
  payee: body.payee,
  amount: String(body.amount),
  notes: body.notes ?? '',
  accountId: body.accountId,
});

/** /api/v1/transactions (`/payments` is not taken for an id: a literal segment is tried first, platform/routing/dispatch.ts). */
export function transactionRoutes(upstreams: Upstreams): Route[] {
  const finance = upstreams.finance;
  return [
    route(op.listTransactions, async ({ query }, { res, upstream }) => {
      const request: financeV1.ListTransactionsRequest = {
        from: query.from ?? '',
        to: query.to ?? '',
        accountId: query.accountId ?? '',
        limit: query.limit,
        cursor: query.cursor ?? '',
      };
      const page = await finance.call((client) => client.listTransactions, request, upstream);
      res.json({
        transactions: page.transactions.map(toTransactionJson),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      });
    }),

    route(op.createTransaction, async ({ headers, body }, { res, upstream }) => {
      const request = { input: toTransactionInput(body), idempotencyKey: headers['Idempotency-Key'] ?? '' };
      const { transaction } = await finance.call((client) => client.createTransaction, request, upstream);
      res.location(`${op.createTransaction.path}/${transaction?.id}`);
      sendRecord(res, transaction, toTransactionJson, 201);
    }),

    route(op.bulkCreateTransactions, async ({ headers, body }, { res, upstream }) => {
      const request = { items: body.map(toTransactionInput), idempotencyKey: headers['Idempotency-Key'] ?? '' };
      const { ids } = await finance.call((client) => client.bulkCreateTransactions, request, upstream);
      res.status(201).json({ ids });
    }),

    route(op.bulkDeleteTransactions, async ({ headers, body }, { res, upstream }) => {
      const request = { ids: body, idempotencyKey: headers['Idempotency-Key'] ?? '' };
      const deleted = await finance.call((client) => client.bulkDeleteTransactions, request, upstream);
      res.json({ ids: deleted.ids });
    }),

    route(op.getTransaction, async ({ path }, { res, upstream }) => {
      const { transaction } = await finance.call((client) => client.getTransaction, { id: path.id }, upstream);
      sendRecord(res, transaction, toTransactionJson);
    }),

    route(op.updateTransaction, async ({ path, body, expectedVersion }, { res, upstream }) => {
      const request: financeV1.UpdateTransactionRequest = {
        id: path.id,
        expectedVersion,
        ...body,
        studentId: body.studentId === undefined ? undefined : (body.studentId ?? ''),
        notes: body.notes === undefined ? undefined : (body.notes ?? ''),
        amount: body.amount === undefined ? undefined : String(body.amount),
      };
      const { transaction } = await finance.call((client) => client.updateTransaction, request, upstream);
      sendRecord(res, transaction, toTransactionJson);
    }),

    route(op.reverseTransaction, async ({ headers, body }, { res, upstream }) => {
      const request = { transactionId: body.transactionId, reason: body.reason, idempotencyKey: headers['Idempotency-Key'] ?? '' };
      const { reversal } = await finance.call((client) => client.reverseTransaction, request, upstream);
      res.location(`${op.createTransaction.path}/${reversal?.id}`);
      sendRecord(res, reversal, toTransactionJson, 201);
    }),

    route(op.deleteTransaction, async ({ path }, { res, upstream }) => {
      const { id } = await finance.call((client) => client.deleteTransaction, { id: path.id }, upstream);
      res.json({ id });
    }),
  ];
}
