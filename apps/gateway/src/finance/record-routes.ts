import type { z } from 'zod';
import { toAccountJson, toCategoryJson, toRegistrationNumberJson, toStatementLineJson, toStudentJson } from '@libs/contracts';
import { route, type Route } from '../platform/routing/operation';
import type { UpstreamCall } from '../platform/upstreams/upstream';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { returned, sendRecord } from './finance-response';
import { sendPdf, sendStatementCsv, statementContent } from './documents/finance-documents';
import * as op from './record-operations';

/** How one kind of record is listed, fetched and created through the finance service. */
interface RecordCalls<R, C> {
  list(call: UpstreamCall): Promise<R[]>;
  get(id: string, call: UpstreamCall): Promise<R | undefined>;
  create(body: C, idempotencyKey: string, call: UpstreamCall): Promise<R | undefined>;
  toJson(record: R): unknown;
}

/** And how a versioned one is updated. */
interface VersionedRecordCalls<R, C, U> extends RecordCalls<R, C> {
  update(request: { id: string; expectedVersion: number } & U, call: UpstreamCall): Promise<R | undefined>;
}

/** The routes of one kind of record, each through the call that answers it. */
function kindRoutes<C extends z.ZodType, R extends { id: string }>(ops: op.RecordOperations<C>, calls: RecordCalls<R, z.output<C>>): Route[] {
  return [
    route(ops.list, async (_input, { res, upstream }) => {
      res.json({ items: (await calls.list(upstream)).map(calls.toJson) });
    }),
    route(ops.get, async ({ path }, { res, upstream }) => {
      sendRecord(res, await calls.get(path.id, upstream), calls.toJson);
    }),
    route(ops.create, async ({ headers, body }, { res, upstream }) => {
      const record = returned(await calls.create(body as z.output<C>, headers['Idempotency-Key'] ?? '', upstream));
      res.location(`${ops.create.path}/${record.id}`);
      sendRecord(res, record, calls.toJson, 201);
    }),
  ];
}

/** And of a versioned kind, whose update honours If-Match. */
function versionedKindRoutes<C extends z.ZodType, U extends z.ZodType, R extends { id: string; version: number }>(
  ops: op.VersionedRecordOperations<C, U>,
  calls: VersionedRecordCalls<R, z.output<C>, z.output<U>>,
): Route[] {
  return [
    ...kindRoutes(ops, calls),
    route(ops.update, async ({ path, body, expectedVersion }, { res, upstream }) => {
      const request = { id: path.id, expectedVersion, ...(body as object) } as { id: string; expectedVersion: number } & z.output<U>;
      sendRecord(res, await calls.update(request, upstream), calls.toJson);
    }),
  ];
}

const orEmpty = (value: string | null) => (value === null ? '' : value);

/** /api/v1/finance/: accounts, categories, registration numbers, students and a student's statement. */
export function recordRoutes(upstreams: Upstreams, documents: { institution: string }): Route[] {
  const finance = upstreams.finance;
  return [
    ...versionedKindRoutes({ list: op.listAccounts, get: op.getAccount, create: op.createAccount, update: op.updateAccount }, {
      list: async (call) => (await finance.call((c) => c.listAccounts, {}, call)).accounts,
      get: async (id, call) => (await finance.call((c) => c.getAccount, { id }, call)).account,
      create: async (body, key, call) =>
        (await finance.call((c) => c.createAccount, { name: body.name, userId: body.userId ?? '', idempotencyKey: key }, call)).account,
      update: async ({ userId, ...request }, call) =>
        (await finance.call((c) => c.updateAccount, { ...request, userId: userId === undefined ? undefined : orEmpty(userId) }, call))
          .account,
      toJson: toAccountJson,
    }),
    ...versionedKindRoutes({ list: op.listCategories, get: op.getCategory, create: op.createCategory, update: op.updateCategory }, {
      list: async (call) => (await finance.call((c) => c.listCategories, {}, call)).categories,
      get: async (id, call) => (await finance.call((c) => c.getCategory, { id }, call)).category,
      create: async (body, key, call) => (await finance.call((c) => c.createCategory, { name: body.name, idempotencyKey: key }, call)).category,
      update: async (request, call) => (await finance.call((c) => c.updateCategory, request, call)).category,
      toJson: toCategoryJson,
    }),
    ...kindRoutes({ list: op.listRegistrationNumbers, get: op.getRegistrationNumber, create: op.createRegistrationNumber }, {
      list: async (call) => (await finance.call((c) => c.listRegistrationNumbers, {}, call)).registrationNumbers,
      get: async (id, call) => (await finance.call((c) => c.getRegistrationNumber, { id }, call)).registrationNumber,
      create: async (body, key, call) =>
        (await finance.call((c) => c.createRegistrationNumber, { number: body.number, idempotencyKey: key }, call)).registrationNumber,
      toJson: toRegistrationNumberJson,
    }),
    ...versionedKindRoutes({ list: op.listStudents, get: op.getStudent, create: op.createStudent, update: op.updateStudent }, {
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
    }),
    route(op.getStudentStatement, async ({ path, query }, { res, upstream }) => {
      const answer = await finance.call((c) => c.getStudentStatement, { studentId: path.id }, upstream);
      const statement = { studentId: path.id, lines: answer.lines.map(toStatementLineJson), balance: Number(answer.balance) };
      if (query.format === 'pdf') sendPdf(res, statementContent({ ...statement, registrationNumber: answer.registrationNumber }, documents.institution));
      else if (query.format === 'csv') sendStatementCsv(res, statement);
      else res.json(statement);
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
      res.status(201).json(toStatementLineJson(returned(line)));
    }),
  ];
}
