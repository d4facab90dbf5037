import { Router, type Response } from 'express';
import type { Sequelize } from 'sequelize';
import { z } from 'zod';
import type { financeV1 } from '@libs/contracts';
import { HttpProblem } from '@libs/http-problems';
import { requireKey } from '../auth/authenticate';
import { etagOf, expectedVersion, idempotencyKey } from '../http/finance-headers';
import { parseBody } from '../http/json-body';
import { QueryParams } from '../http/query-params';
import type { Upstreams } from '../upstreams/upstreams';
import { toTransactionJson } from './finance-json';
import { isoDate, newTransaction, toTransactionInput, transactionFields, uuid } from './finance-fields';

const MAX_BULK = 1000;

const transactionPatch = z
  .object(transactionFields)
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: 'send at least one field to change' });

const bulkCreate = z.array(newTransaction).min(1, { message: 'must hold at least one item' }).max(MAX_BULK, {
  message: `must hold at most ${MAX_BULK} items`,
});
const bulkDelete = z.array(uuid).min(1, { message: 'must hold at least one id' }).max(MAX_BULK, {
  message: `must hold at most ${MAX_BULK} ids`,
});

function sendTransaction(res: Response, transaction: financeV1.Transaction | undefined, status = 200): void {
  if (!transaction) throw new HttpProblem(500, 'the finance service returned no transaction');
  res.status(status).setHeader('ETag', etagOf(transaction.version)).json(toTransactionJson(transaction));
}

/** /api/v1/transactions (DESIGN.md §5). Mount paymentRoutes first: `/payments` must not be taken for an id. */
export function transactionRoutes(upstreams: Upstreams, sequelize: Sequelize): Router {
  const router = Router();
  const base = '/api/v1/transactions';
  const finance = upstreams.finance;

  router.get(base, requireKey(sequelize, 'finance:read'), async (req, res) => {
    const query = new QueryParams(req);
    const dateParam = (name: string) => {
      const value = query.string(name, { max: 10 }) ?? '';
      if (value && !isoDate.safeParse(value).success) throw HttpProblem.invalidParameter(name, 'must be a date written YYYY-MM-DD');
      return value;
    };
    const request: financeV1.ListTransactionsRequest = {
      from: dateParam('from'),
      to: dateParam('to'),
      accountId: query.string('accountId', { max: 64 }) ?? '',
      limit: query.integer('limit', 50, 1, 500),
      cursor: query.cursor() ?? '',
    };
    const page = await finance.call((client) => client.listTransactions, request, res);
    res.json({
      transactions: page.transactions.map(toTransactionJson),
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    });
  });

  router.post(base, requireKey(sequelize, 'finance:write'), async (req, res) => {
    const body = await parseBody(req, res, newTransaction);
    const request = { input: toTransactionInput(body), idempotencyKey: idempotencyKey(req) };
    const { transaction } = await finance.call((client) => client.createTransaction, request, res);
    res.location(`${base}/${transaction?.id}`);
    sendTransaction(res, transaction, 201);
  });

  router.post(`${base}/bulk-create`, requireKey(sequelize, 'finance:write'), async (req, res) => {
    const items = (await parseBody(req, res, bulkCreate)).map(toTransactionInput);
    const { ids } = await finance.call((client) => client.bulkCreateTransactions, { items, idempotencyKey: idempotencyKey(req) }, res);
    res.status(201).json({ ids });
  });

  router.post(`${base}/bulk-delete`, requireKey(sequelize, 'finance:delete'), async (req, res) => {
    const ids = await parseBody(req, res, bulkDelete);
    const deleted = await finance.call((client) => client.bulkDeleteTransactions, { ids, idempotencyKey: idempotencyKey(req) }, res);
    res.json({ ids: deleted.ids });
  });

  router.get(`${base}/:id`, requireKey(sequelize, 'finance:read'), async (req, res) => {
    const { transaction } = await finance.call((client) => client.getTransaction, { id: String(req.params.id) }, res);
    sendTransaction(res, transaction);
  });

  router.patch(`${base}/:id`, requireKey(sequelize, 'finance:write'), async (req, res) => {
    const body = await parseBody(req, res, transactionPatch);
    const version = expectedVersion(req);
    const request: financeV1.UpdateTransactionRequest = {
      id: String(req.params.id),
      expectedVersion: version,
      ...body,
      studentId: body.studentId === undefined ? undefined : (body.studentId ?? ''),
      amount: body.amount === undefined ? undefined : String(body.amount),
    };
    const { transaction } = await finance.call((client) => client.updateTransaction, request, res);
    sendTransaction(res, transaction);
  });

  router.delete(`${base}/:id`, requireKey(sequelize, 'finance:delete'), async (req, res) => {
    const { id } = await finance.call((client) => client.deleteTransaction, { id: String(req.params.id) }, res);
    res.json({ id });
  });

  return router;
}
