import type { Response } from 'express';
import type { z } from 'zod';
import { toAccountJson, toCategoryJson, toRegistrationNumberJson, toStatementLineJson, toStudentJson } from '@libs/contracts';
import { HttpProblem } from '@libs/http-problems';
import { etagOf } from '../platform/http/if-match';
import { areaOf, type Area } from '../platform/routing/area';
import { route, type Route } from '../platform/routing/operation';
import type { UpstreamCall } from '../platform/upstreams/upstream';
import type { Upstreams } from '../platform/upstreams/upstreams';
import * as op from './record-operations';

type Finance = Upstreams['finance'];

/** How one kind of record is listed, fetched, created and (if versioned) updated through the finance service. */
interface RecordCalls<R, C, U> {
  list(call: UpstreamCall): Promise<R[]>;
  get(id: string, call: UpstreamCall): Promise<R | undefined>;
  create(body: C, idempotencyKey: string, call: UpstreamCall): Promise<R | undefined>;
  update?(request: { id: string; expectedVersion: number } & U, call: UpstreamCall): Promise<R | undefined>;
  toJson(record: R): unknown;
}

/** Sends a record, with its ETag when it is versioned. */
function sendRecord<R>(res: Response, record: R, toJson: (record: R) => unknown, status = 200): void {
  const version = (record as { version?: number }).version;
  if (version) res.setHeader('ETag', etagOf(version));
  res.status(status).json(toJson(record));
}

const found = <R>(record: R | undefined, what: string): R => {
  if (!record) throw new HttpProblem(500, `the finance service returned no ${what}`);
  return record;
};

function recordRoutes<C extends z.ZodType, U extends z.ZodType | undefined, R>(
  ops: op.RecordOperations<C, U>,
  calls: RecordCalls<R, z.output<C>, U extends z.ZodType ? z.output<U> : never>,
): Route[] {
  const what = ops.kind.path;
  const routes = [
    route(ops.list, async (_input, { res, upstream }) => {
      res.json({ items: (await calls.list(upstream)).map(calls.toJson) });
    }),
    route(ops.get, async ({ path }, { res, upstream }) => {
      sendRecord(res, found(await calls.get(path.id, upstream), what), calls.toJson);
    }),
    route(ops.create, async ({ headers, body }, { res, upstream }) => {
      const record = found(await calls.create(body as z.output<C>, headers['Idempotency-Key'] ?? '', upstream), what);
      res.location(`${ops.create.path}/${(record as { id: string }).id}`);
      sendRecord(res, record, calls.toJson, 201);
    }),
  ];
  const { update } = calls;
  if (ops.update && update) {
    routes.push(
      route(ops.update, async ({ path, body, expectedVersion }, { res, upstream }) => {
        const request = { id: path.id, expectedVersion, ...(body as object) } as Parameters<typeof update>[0];
        sendRecord(res, found(await update(request, upstream), what), calls.toJson);
      }),
    );
  }
  return routes;
}

/** One kind of record: its operations, and the routes that answer them through the finance service. */
function recordArea<C extends z.ZodType, U extends z.ZodType | undefined, R>(
  ops: op.RecordOperations<C, U>,
  calls: (finance: Finance) => RecordCalls<R, z.output<C>, U extends z.ZodType ? z.output<U> : never>,
): Area<{ upstreams: Upstreams }> {
  return {
    operations: [ops.list, ops.get, ops.create, ...(ops.update ? [ops.update] : [])],
    routes: ({ upstreams }) => recordRoutes(ops, calls(upstreams.finance)),
  };
}

const orEmpty = (value: string | null) => (value === null ? '' : value);

/** /api/v1/finance/: accounts, categories, registration numbers, students and a student's statement. */
export const financeRecords = areaOf<{ upstreams: Upstreams }>(
  recordArea(op.accounts, (finance) => ({
    list: async (call) => (await finance.call((c) => c.listAccounts, {}, call)).accounts,
    get: async (id, call) => (await finance.call((c) => c.getAccount, { id }, call)).account,
    create: async (body, key, call) =>
      (await finance.call((c) => c.createAccount, { name: body.name, userId: body.userId ?? '', idempotencyKey: key }, call)).account,
    update: async ({ userId, ...request }, call) =>
      (await finance.call((c) => c.updateAccount, { ...request, userId: userId === undefined ? undefined : orEmpty(userId) }, call))
        .account,
    toJson: toAccountJson,
  })),
  recordArea(op.categories, (finance) => ({
    list: async (call) => (await finance.call((c) => c.listCategories, {}, call)).categories,
    get: async (id, call) => (await finance.call((c) => c.getCategory, { id }, call)).category,
    create: async (body, key, call) => (await finance.call((c) => c.createCategory, { name: body.name, idempotencyKey: key }, call)).category,
    update: async (request, call) => (await finance.call((c) => c.updateCategory, request, call)).category,
    toJson: toCategoryJson,
  })),
  recordArea(op.registrationNumbers, (finance) => ({
    list: async (call) => (await finance.call((c) => c.listRegistrationNumbers, {}, call)).registrationNumbers,
    get: async (id, call) => (await finance.call((c) => c.getRegistrationNumber, { id }, call)).registrationNumber,
    create: async (body, key, call) =>
      (await finance.call((c) => c.createRegistrationNumber, { number: body.number, idempotencyKey: key }, call)).registrationNumber,
    toJson: toRegistrationNumberJson,
  })),
  recordArea(op.students, (finance) => ({
    list: async (call) => (await finance.call((c) => c.listStudents, {}, call)).students,
    get: async (id, call) => (await finance.call((c) => c.getStudent, { id }, call)).student,
    create: async (body, key, call) => {
      const request = {
        registrationNumberId: body.registrationNumberId,
        userId: body.userId ?? '',
        currentProgramLevelId: body.currentProgramLevelId ?? '',
        idempotencyKey: key,
      };
      return (await finance.call((c) => c.createStudent, request, call)).student;
    },
    update: async ({ userId, currentProgramLevelId, ...request }, call) => {
      const changes = {
        ...request,
        userId: userId === undefined ? undefined : orEmpty(userId),
        currentProgramLevelId: currentProgramLevelId === undefined ? undefined : orEmpty(currentProgramLevelId),
      };
      return (await finance.call((c) => c.updateStudent, changes, call)).student;
    },
    toJson: toStudentJson,
  })),
  {
    operations: [op.getStudentStatement, op.addStatementLine],
    routes: ({ upstreams: { finance } }) => [
      route(op.getStudentStatement, async ({ path }, { res, upstream }) => {
        const statement = await finance.call((c) => c.getStudentStatement, { studentId: path.id }, upstream);
        res.json({ studentId: path.id, lines: statement.lines.map(toStatementLineJson), balance: Number(statement.balance) });
      }),

      route(op.addStatementLine, async ({ path, headers, body }, { res, upstream }) => {
        const request = {
          studentId: path.id,
          semesterId: body.semesterId ?? '',
          date: body.date,
          description: body.description,
          debit: String(body.debit ?? 0),
          credit: String(body.credit ?? 0),
          idempotencyKey: headers['Idempotency-Key'] ?? '',
        };
        const { line } = await finance.call((c) => c.addStatementLine, request, upstream);
        res.status(201).json(toStatementLineJson(found(line, 'statement line')));
      }),
    ],
  },
);
