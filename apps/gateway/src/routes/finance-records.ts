import { Router, type Request, type Response } from 'express';
import type { Sequelize } from 'sequelize';
import { z } from 'zod';
import { HttpProblem } from '@libs/http-problems';
import { requireKey } from '../auth/authenticate';
import type { Permission } from '../auth/permissions';
import { etagOf, expectedVersion, idempotencyKey } from '../http/finance-headers';
import { parseBody } from '../http/json-body';
import type { Upstreams } from '../upstreams/upstreams';
import { amount, isoDate, text, uuid } from './finance-fields';
import { toAccountJson, toStatementLineJson, toStudentJson } from './finance-json';

type Finance = Upstreams['finance'];

/** One supporting record type: how to list, get, create and (if versioned) update it through the finance service. */
interface RecordRoute<B, R, P = never> {
  path: string;
  read: Permission;
  body: z.ZodType<B>;
  list(finance: Finance, res: Response): Promise<R[]>;
  get(finance: Finance, id: string, res: Response): Promise<R | undefined>;
  create(finance: Finance, body: B, key: string, res: Response): Promise<R | undefined>;
  patch?: {
    body: z.ZodType<P>;
    update(finance: Finance, request: { id: string; expectedVersion: number } & P, res: Response): Promise<R | undefined>;
  };
  toJson(record: R): unknown;
}

/** Sends a record, with its ETag when it is versioned. */
function sendRecord<R>(res: Response, record: R, toJson: (record: R) => unknown, status = 200): void {
  const version = (record as { version?: number }).version;
  if (version) res.setHeader('ETag', etagOf(version));
  res.status(status).json(toJson(record));
}

/** A partial update body: strict, and with at least one field. */
const patchOf = <S extends z.ZodRawShape>(shape: S) =>
  z
    .object(shape)
    .partial()
    .strict()
    .refine((body) => Object.keys(body).length > 0, { message: 'send at least one field to change' });

const found = <R>(record: R | undefined, what: string): R => {
  if (!record) throw new HttpProblem(500, `the finance service returned no ${what}`);
  return record;
};

function mountRecord<B, R, P>(router: Router, sequelize: Sequelize, finance: Finance, route: RecordRoute<B, R, P>): void {
  const base = `/api/v1/finance/${route.path}`;
  router.get(base, requireKey(sequelize, route.read), async (_req: Request, res: Response) => {
    res.json({ items: (await route.list(finance, res)).map(route.toJson) });
  });
  router.get(`${base}/:id`, requireKey(sequelize, route.read), async (req: Request, res: Response) => {
    sendRecord(res, found(await route.get(finance, String(req.params.id), res), route.path), route.toJson);
  });
  router.post(base, requireKey(sequelize, 'finance:write'), async (req: Request, res: Response) => {
    const body = await parseBody(req, res, route.body);
    const record = found(await route.create(finance, body, idempotencyKey(req), res), route.path);
    res.location(`${base}/${(record as { id: string }).id}`);
    sendRecord(res, record, route.toJson, 201);
  });
  const patch = route.patch;
  if (!patch) return;
  router.patch(`${base}/:id`, requireKey(sequelize, 'finance:write'), async (req: Request, res: Response) => {
    const body = await parseBody(req, res, patch.body);
    const request = { id: String(req.params.id), expectedVersion: expectedVersion(req), ...body };
    sendRecord(res, found(await patch.update(finance, request, res), route.path), route.toJson);
  });
}

const statementLineBody = z
  .object({
    date: isoDate,
    description: text(500).min(1, { message: 'is required' }),
    debit: amount.optional(),
    credit: amount.optional(),
    semesterId: text(64).optional(),
  })
  .strict();

const name = text(200).min(1, { message: 'is required' });
const nameBody = z.object({ name }).strict();
const identity = <R>(record: R) => record;

/** /api/v1/finance/: accounts, categories, registration numbers, students and a student's statement. */
export function financeRecordRoutes(upstreams: Upstreams, sequelize: Sequelize): Router {
  const router = Router();
  const finance = upstreams.finance;

  mountRecord(router, sequelize, finance, {
    path: 'accounts',
    read: 'finance:records:read',
    body: nameBody.extend({ userId: text(64).optional() }).strict(),
    list: async (f, res) => (await f.call((c) => c.listAccounts, {}, res)).accounts,
    get: async (f, id, res) => (await f.call((c) => c.getAccount, { id }, res)).account,
    create: async (f, body, key, res) =>
      (await f.call((c) => c.createAccount, { name: body.name, userId: body.userId ?? '', idempotencyKey: key }, res)).account,
    patch: {
      body: patchOf({ name, userId: text(64).nullable() }),
      update: async (f, { userId, ...request }, res) =>
        (await f.call((c) => c.updateAccount, { ...request, userId: userId === null ? '' : userId }, res)).account,
    },
    toJson: toAccountJson,
  });
  mountRecord(router, sequelize, finance, {
    path: 'categories',
    read: 'finance:records:read',
    body: nameBody,
    list: async (f, res) => (await f.call((c) => c.listCategories, {}, res)).categories,
    get: async (f, id, res) => (await f.call((c) => c.getCategory, { id }, res)).category,
    create: async (f, body, key, res) => (await f.call((c) => c.createCategory, { name: body.name, idempotencyKey: key }, res)).category,
    patch: {
      body: patchOf({ name }),
      update: async (f, request, res) => (await f.call((c) => c.updateCategory, request, res)).category,
    },
    toJson: identity,
  });
  mountRecord(router, sequelize, finance, {
    path: 'registration-numbers',
    read: 'finance:records:read',
    body: z.object({ number: text(64).min(1, { message: 'is required' }) }).strict(),
    list: async (f, res) => (await f.call((c) => c.listRegistrationNumbers, {}, res)).registrationNumbers,
    get: async (f, id, res) => (await f.call((c) => c.getRegistrationNumber, { id }, res)).registrationNumber,
    create: async (f, body, key, res) =>
      (await f.call((c) => c.createRegistrationNumber, { number: body.number, idempotencyKey: key }, res)).registrationNumber,
    toJson: identity,
  });
  mountRecord(router, sequelize, finance, {
    path: 'students',
    read: 'finance:read',
    body: z
      .object({ registrationNumberId: uuid, userId: text(64).optional(), currentProgramLevelId: text(64).optional() })
      .strict(),
    list: async (f, res) => (await f.call((c) => c.listStudents, {}, res)).students,
    get: async (f, id, res) => (await f.call((c) => c.getStudent, { id }, res)).student,
    create: async (f, body, key, res) =>
      (
        await f.call(
          (c) => c.createStudent,
          {
            registrationNumberId: body.registrationNumberId,
            userId: body.userId ?? '',
            currentProgramLevelId: body.currentProgramLevelId ?? '',
            idempotencyKey: key,
          },
          res,
        )
      ).student,
    patch: {
      body: patchOf({ userId: text(64).nullable(), currentProgramLevelId: text(64).nullable() }),
      update: async (f, { userId, currentProgramLevelId, ...request }, res) =>
        (
          await f.call(
            (c) => c.updateStudent,
            {
              ...request,
              userId: userId === null ? '' : userId,
              currentProgramLevelId: currentProgramLevelId === null ? '' : currentProgramLevelId,
            },
            res,
          )
        ).student,
    },
    toJson: toStudentJson,
  });

  router.get('/api/v1/finance/students/:id/statement', requireKey(sequelize, 'finance:read'), async (req, res) => {
    const studentId = String(req.params.id);
    const statement = await finance.call((c) => c.getStudentStatement, { studentId }, res);
    res.json({ studentId, lines: statement.lines.map(toStatementLineJson), balance: Number(statement.balance) });
  });

  router.post('/api/v1/finance/students/:id/statement', requireKey(sequelize, 'finance:write'), async (req, res) => {
    const body = await parseBody(req, res, statementLineBody);
    const request = {
      studentId: String(req.params.id),
      semesterId: body.semesterId ?? '',
      date: body.date,
      description: body.description,
      debit: String(body.debit ?? 0),
      credit: String(body.credit ?? 0),
      idempotencyKey: idempotencyKey(req),
    };
    const { line } = await finance.call((c) => c.addStatementLine, request, res);
    res.status(201).json(toStatementLineJson(found(line, 'statement line')));
  });

  return router;
}
