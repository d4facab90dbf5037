import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import { z } from 'zod';
import type { financeV1 } from '@libs/contracts';
import { HttpProblem } from '@libs/http-problems';
import { requireKey } from '../auth/authenticate';
import { parseBody } from '../http/json-body';
import type { Upstreams } from '../upstreams/upstreams';

const text = (max: number) => z.string().max(max);
const uuid = z.uuid({ message: 'must be a UUID' });

/** Amounts are integer minor units; a fraction, a float or a string is refused here, before any call. */
const amount = z.number().int({ message: 'must be an integer number of minor units' }).refine(Number.isSafeInteger, {
  message: 'is too large',
});

const createTransactionBody = z
  .object({
    studentId: uuid.nullish(),
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date written YYYY-MM-DD' }),
    categoryId: uuid,
    payee: text(200).min(1, { message: 'is required' }),
    amount,
    notes: text(2000).optional(),
    accountId: uuid,
  })
  .strict();

export function toTransactionJson(transaction: financeV1.Transaction) {
  return {
    id: transaction.id,
    studentId: transaction.studentId || null,
    date: transaction.date,
    categoryId: transaction.categoryId,
    payee: transaction.payee,
    amount: Number(transaction.amount),
    notes: transaction.notes,
    accountId: transaction.accountId,
    madeBy: transaction.madeBy,
    createdAt: transaction.createdAt,
    updatedAt: transaction.updatedAt,
    version: transaction.version,
  };
}

export function transactionRoutes(upstreams: Upstreams, sequelize: Sequelize): Router {
  const router = Router();
  const base = '/api/v1/transactions';

  router.post(base, requireKey(sequelize, 'finance:write'), async (req, res) => {
    const body = parseBody(req, createTransactionBody);
    const { transaction } = await upstreams.finance.call(
      (client) => client.createTransaction,
      {
        studentId: body.studentId ?? '',
        date: body.date,
        categoryId: body.categoryId,
        payee: body.payee,
        amount: String(body.amount),
        notes: body.notes ?? '',
        accountId: body.accountId,
      },
      res,
    );
    if (!transaction) throw new HttpProblem(500, 'the finance service returned no transaction');
    res.status(201).location(`${base}/${transaction.id}`).json(toTransactionJson(transaction));
  });

  router.get(`${base}/:id`, requireKey(sequelize, 'finance:read'), async (req, res) => {
    const id = String(req.params.id);
    const { transaction } = await upstreams.finance.call((client) => client.getTransaction, { id }, res);
    if (!transaction) throw HttpProblem.notFound(`no transaction with id ${id}`);
    res.json(toTransactionJson(transaction));
  });

  return router;
}
