import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import { z } from 'zod';
import type { financeV1 } from '@libs/contracts';
import { HttpProblem } from '@libs/http-problems';
import { requireKey } from '../auth/authenticate';
import { idempotencyKey } from '../http/finance-headers';
import { parseBody } from '../http/json-body';
import { QueryParams } from '../http/query-params';
import type { Upstreams } from '../upstreams/upstreams';
import { amount, isoDate, text, uuid } from './finance-fields';
import { toPaymentJson } from './finance-json';

const submitBody = z
  .object({
    studentId: uuid.optional(),
    amount: amount.refine((value) => value > 0, { message: 'must be a positive number of minor units' }),
    description: text(500).optional(),
    date: isoDate,
  })
  .strict();
const processBody = z
  .object({
    outcome: z.enum(['accepted', 'rejected'], { message: 'must be accepted or rejected' }),
    note: text(1000).optional(),
  })
  .strict();
const resolveBody = z.object({ note: text(1000).optional() }).strict();

function paymentOf(response: { payment?: financeV1.Payment }) {
  if (!response.payment) throw new HttpProblem(500, 'the finance service returned no payment');
  return toPaymentJson(response.payment);
}

/** Proofs of payment under /api/v1/transactions/payments: a student submits, a bursar processes and resolves. */
export function paymentRoutes(upstreams: Upstreams, sequelize: Sequelize): Router {
  const router = Router();
  const base = '/api/v1/transactions/payments';
  const finance = upstreams.finance;

  router.get(base, requireKey(sequelize, 'finance:read'), async (req, res) => {
    const query = new QueryParams(req);
    const request: financeV1.ListPaymentsRequest = {
      status: query.oneOf('status', ['pending', 'processed', 'resolved', ''], ''),
      studentId: query.string('studentId', { max: 64 }) ?? '',
      limit: query.integer('limit', 50, 1, 500),
      cursor: query.cursor() ?? '',
    };
    const page = await finance.call((client) => client.listPayments, request, res);
    res.json({ payments: page.payments.map(toPaymentJson), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) });
  });

  router.post(base, requireKey(sequelize, 'payments:submit'), async (req, res) => {
    const body = await parseBody(req, res, submitBody);
    const request: financeV1.SubmitPaymentRequest = {
      studentId: body.studentId ?? '',
      amount: String(body.amount),
      description: body.description ?? '',
      date: body.date,
      idempotencyKey: idempotencyKey(req),
    };
    const payment = paymentOf(await finance.call((client) => client.submitPayment, request, res));
    res.status(201).location(`${base}/${payment.id}`).json(payment);
  });

  router.patch(`${base}/:id`, requireKey(sequelize, 'finance:write'), async (req, res) => {
    const body = await parseBody(req, res, processBody);
    const request = { id: String(req.params.id), outcome: body.outcome, note: body.note ?? '' };
    res.json(paymentOf(await finance.call((client) => client.processPayment, request, res)));
  });

  router.patch(`${base}/:id/resolve`, requireKey(sequelize, 'finance:write'), async (req, res) => {
    const body = await parseBody(req, res, resolveBody.optional());
    const request = { id: String(req.params.id), note: body?.note ?? '' };
    res.json(paymentOf(await finance.call((client) => client.resolvePayment, request, res)));
  });

  return router;
}
