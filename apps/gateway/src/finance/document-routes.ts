import type { Response } from 'express';
import { FINANCE_LIMITS, toPaymentJson, toTransactionJson, type TransactionJson } from '@libs/contracts';
import { HttpProblem } from '@libs/http-problems';
import { streamPages } from '../platform/http/streamed-pages';
import { route, type Route } from '../platform/routing/operation';
import type { UpstreamCall } from '../platform/upstreams/upstream';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { CSV_BOM, CSV_TYPE, csvRecord } from './documents/csv';
import { receiptContent, sendPdf } from './documents/finance-documents';
import { decimalOf } from './documents/money';
import * as op from './document-operations';
import { returned } from './finance-response';

const TRANSACTION_CSV_HEADER = [
  'id', 'date', 'accountId', 'account', 'categoryId', 'category', 'payee', 'amount', 'notes', 'studentId', 'reversalOf', 'reversedBy', 'madeBy', 'createdAt',
];

const transactionRecord = (t: TransactionJson) =>
  csvRecord([
    t.id, t.date, t.accountId, t.account.name, t.categoryId, t.category.name, t.payee, { figure: decimalOf(t.amount) }, t.notes, t.studentId,
    t.reversalOf, t.reversedBy, t.madeBy, t.createdAt,
  ]);

/** The ledger, page after page of the finance service's keyset list, the gateway holding one at a time. */
async function streamTransactions(res: Response, finance: Upstreams['finance'], range: { from: string; to: string }, upstream: UpstreamCall) {
  res.status(200).type(CSV_TYPE).setHeader('Content-Disposition', 'attachment; filename="transactions.csv"');
  res.write(CSV_BOM + csvRecord(TRANSACTION_CSV_HEADER));
  await streamPages(res, res, async (cursor) => {
    const request = { ...range, accountId: '', limit: FINANCE_LIMITS.page.max, cursor };
    const page = await finance.call((client) => client.listTransactions, request, upstream);
    return { text: page.transactions.map((t) => transactionRecord(toTransactionJson(t))).join(''), nextCursor: page.nextCursor };
  });
}

/** A receipt, and the ledger as CSV. */
export function documentRoutes(upstreams: Upstreams, documents: { institution: string }): Route[] {
  const finance = upstreams.finance;
  return [
    route(op.getPaymentReceipt, async ({ path }, { res, upstream }) => {
      const answer = await finance.call((client) => client.getPayment, { id: path.id }, upstream);
      const payment = toPaymentJson(returned(answer.payment));
      if (payment.outcome !== 'accepted' || payment.status === 'reversed') {
        throw new HttpProblem(409, `payment ${payment.id} is ${payment.status === 'reversed' ? 'reversed' : 'not accepted'}: it has no receipt`);
      }
      sendPdf(res, receiptContent(payment, answer.registrationNumber, documents.institution));
    }),

    route(op.exportTransactions, async ({ query }, { res, upstream }) => {
      await streamTransactions(res, finance, { from: query.from ?? '', to: query.to ?? '' }, upstream);
    }),
  ];
}
