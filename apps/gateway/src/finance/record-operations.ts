import { z } from 'zod';
import { financeApi, type Permission } from '@libs/contracts';
import { idempotentWrite } from '../platform/routing/headers';
import { operation } from '../platform/routing/operation';
import { etagHeader, json, problem, locationHeader } from '../platform/routing/responses';
import * as schemas from './schemas';
import { documentFormat, pdfHeaders } from './finance-operation-parts';

/** The supporting finance records under /api/v1/finance/, and a student's statement. */

const tag = 'Finance records';
const { recordBodies } = financeApi;

interface RecordKind<C extends z.ZodType> {
  /** The path under /api/v1/finance/. */
  path: string;
  /** Singular, for summaries and operation ids: `Account`. */
  noun: string;
  record: z.ZodType;
  read: Permission;
  create: C;
}

/** How one kind of record's path, id parameter and summaries are written. */
function wordsOf(kind: RecordKind<z.ZodType>) {
  return {
    base: `/api/v1/finance/${kind.path}`,
    words: kind.path.replace('-', ' ').replace(/s$/, ''),
    byId: z.object({ id: financeApi.uuid.meta({ description: `${kind.noun} id.` }) }),
  };
}

/** List, get and create of one kind of record; each is exported by its operationId below. */
function recordOperations<C extends z.ZodType>(kind: RecordKind<C>) {
  const { base, words, byId } = wordsOf(kind);
  // The path is the plural (`categories`), so the list's id needs no English rules: `listCategories`.
  const plural = kind.path.replace(/(?:^|-)(\w)/g, (_match, letter: string) => letter.toUpperCase());
  return {
    list: operation({
      method: 'get',
      path: base,
      operationId: `list${plural}`,
      summary: `Every ${words}`,
      tag,
      access: { key: kind.read },
      request: {},
      responses: { '200': json('All of them (these tables are small).', z.object({ items: z.array(kind.record) })) },
    }),
    get: operation({
      method: 'get',
      path: `${base}/{id}`,
      operationId: `get${kind.noun}`,
      summary: `One ${words}`,
      tag,
      access: { key: kind.read },
      request: { path: byId },
      responses: { '200': json('The record.', kind.record, etagHeader), '404': problem('No such record (or not yours).') },
    }),
    create: operation({
      method: 'post',
      path: base,
      operationId: `create${kind.noun}`,
      summary: `Create a ${words}`,
      tag,
      access: { key: 'finance:write' },
      request: { headers: idempotentWrite, body: kind.create },
      responses: {
        '201': json('Created; `Location` names it.', kind.record, { ...etagHeader, ...locationHeader }),
        '409': problem('A unique value is taken, or the Idempotency-Key was used with another request.'),
      },
    }),
  };
}

/** A versioned kind of record: list, get and create, and update. */
function versionedRecordOperations<C extends z.ZodType, U extends z.ZodType>(kind: RecordKind<C> & { update: U }) {
  const { base, words, byId } = wordsOf(kind);
  return {
    ...recordOperations(kind),
    update: operation({
      method: 'patch',
      path: `${base}/{id}`,
      operationId: `update${kind.noun}`,
      summary: `Change a ${words}`,
      tag,
      access: { key: 'finance:write' },
      request: { path: byId, body: kind.update },
      ifMatch: true,
      responses: {
        '200': json('The updated record, with its new ETag.', kind.record, etagHeader),
        '404': problem('No such record.'),
        '409': problem('A unique value is taken.'),
      },
    }),
  };
}

/** A kind of record's operations, as record-routes.ts answers them. */
export type RecordOperations<C extends z.ZodType> = ReturnType<typeof recordOperations<C>>;
export type VersionedRecordOperations<C extends z.ZodType, U extends z.ZodType> = ReturnType<typeof versionedRecordOperations<C, U>>;

export const {
  list: listAccounts,
  get: getAccount,
  create: createAccount,
  update: updateAccount,
} = versionedRecordOperations({
  path: 'accounts',
  noun: 'Account',
  record: schemas.account,
  read: 'finance:records:read',
  ...recordBodies.account,
});

export const {
  list: listCategories,
  get: getCategory,
  create: createCategory,
  update: updateCategory,
} = versionedRecordOperations({
  path: 'categories',
  noun: 'Category',
  record: schemas.category,
  read: 'finance:records:read',
  ...recordBodies.category,
});

export const {
  list: listRegistrationNumbers,
  get: getRegistrationNumber,
  create: createRegistrationNumber,
} = recordOperations({
  path: 'registration-numbers',
  noun: 'RegistrationNumber',
  record: schemas.registrationNumber,
  read: 'finance:records:read',
  ...recordBodies.registrationNumber,
});

export const {
  list: listStudents,
  get: getStudent,
  create: createStudent,
  update: updateStudent,
} = versionedRecordOperations({
  path: 'students',
  noun: 'Student',
  record: schemas.student,
  read: 'finance:read',
  ...recordBodies.student,
});

const studentPath = z.object({ id: financeApi.uuid.meta({ description: 'Student id.' }) });

export const getStudentStatement = operation({
  method: 'get',
  path: '/api/v1/finance/students/{id}/statement',
  operationId: 'getStudentStatement',
  summary: "A student's financial statement with its running balance, as JSON, a PDF or CSV",
  description:
    'The PDF names the institution, the student and their registration number, every line and the balance, with a document number and the ' +
    'SHA-256 of its content; the CSV (RFC 4180, UTF-8 with a byte order mark) holds the same lines with amounts as decimals.',
  tag,
  access: { key: 'finance:read' },
  request: { path: studentPath, query: z.object({ format: documentFormat(['json', 'pdf', 'csv']) }) },
  responses: {
    '200': {
      description: 'Lines in (date, creation) order.',
      content: { 'application/json': schemas.statement, 'application/pdf': z.string(), 'text/csv': z.string() },
      headers: pdfHeaders,
    },
    '404': problem('No such student (or not yours).'),
  },
});

export const addStatementLine = operation({
  method: 'post',
  path: '/api/v1/finance/students/{id}/statement',
  operationId: 'addStatementLine',
  summary: 'Post a charge (debit) or a credit to a statement',
  tag,
  access: { key: 'finance:write' },
  request: { path: studentPath, headers: idempotentWrite, body: financeApi.statementLine },
  responses: { '201': json('The new line.', schemas.statementLine), '404': problem('No such student.') },
});
