import { toPaymentJson, type financeV1 } from '@libs/contracts';
import { route, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { returned } from './finance-response';
import * as op from './payment-operations';

const paymentOf = (response: { payment?: financeV1.Payment }) => toPaymentJson(returned(response.payment));

/** Proofs of payment under /api/v1/transactions/payments: a student submits, a bursar processes and resolves. */
export function paymentRoutes(upstreams: Upstreams): Route[] {
  const finance = upstreams.finance;
  return [
    route(op.listPayments, async ({ query }, { res, upstream }) => {
      const request: financeV1.ListPaymentsRequest = {
        status: query.status ?? '',
        studentId: query.studentId ?? '',
        limit: query.limit,
        cursor: query.cursor ?? '',
      };
      const page = await finance.call((client) => client.listPayments, request, upstream);
      res.json({ payments: page.payments.map(toPaymentJson), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) });
    }),

    route(op.submitPayment, async ({ headers, body }, { res, upstream }) => {
      const request: financeV1.SubmitPaymentRequest = {
        studentId: body.studentId ?? '',
        amount: String(body.amount),
        description: body.description ?? '',
        date: body.date,
        idempotencyKey: headers['Idempotency-Key'] ?? '',
        fileIds: body.fileIds ?? [],
      };
      const payment = paymentOf(await finance.call((client) => client.submitPayment, request, upstream));
      res.status(201).location(`${op.submitPayment.path}/${payment.id}`).json(payment);
    }),

    route(op.processPayment, async ({ path, body }, { res, upstream }) => {
      const request = { id: path.id, outcome: body.outcome, note: body.note ?? '' };
      res.json(paymentOf(await finance.call((client) => client.processPayment, request, upstream)));
    }),

    route(op.resolvePayment, async ({ path, body }, { res, upstream }) => {
      const request = { id: path.id, note: body?.note ?? '' };
      res.json(paymentOf(await finance.call((client) => client.resolvePayment, request, upstream)));
    }),

    route(op.reversePayment, async ({ path, headers, body }, { res, upstream }) => {
      const request = { id: path.id, reason: body.reason, idempotencyKey: headers['Idempotency-Key'] ?? '' };
      res.json(paymentOf(await finance.call((client) => client.reversePayment, request, upstream)));
    }),
  ];
}
