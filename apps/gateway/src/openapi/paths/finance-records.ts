import {
  etagHeader,
  idempotencyKeyHeader,
  ifMatchHeader,
  json,
  jsonBody,
  operation,
  pathParam,
  problem,
  ref,
  type Schema,
} from '../builders';
import type { Permission } from '../../auth/permissions';

const uuid = { type: 'string', format: 'uuid' };
const tags = ['Finance records'];

interface RecordDoc {
  path: string;
  /** Singular, for summaries and operation ids: `account`. */
  noun: string;
  schema: string;
  read: Permission;
  create: Schema;
  update?: Schema;
}

const strict = (properties: Record<string, unknown>, required: string[] = []): Schema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});

const RECORDS: RecordDoc[] = [
  {
    path: 'accounts',
    noun: 'Account',
    schema: 'Account',
    read: 'finance:records:read',
    create: strict({ name: { type: 'string', minLength: 1, maxLength: 200 }, userId: { type: 'string', maxLength: 64 } }, ['name']),
    update: strict({ name: { type: 'string', minLength: 1, maxLength: 200 }, userId: { type: ['string', 'null'], maxLength: 64 } }),
  },
  {
    path: 'categories',
    noun: 'Category',
    schema: 'FinanceCategory',
    read: 'finance:records:read',
    create: strict({ name: { type: 'string', minLength: 1, maxLength: 200 } }, ['name']),
    update: strict({ name: { type: 'string', minLength: 1, maxLength: 200 } }),
  },
  {
    path: 'registration-numbers',
    noun: 'RegistrationNumber',
    schema: 'RegistrationNumber',
    read: 'finance:records:read',
    create: strict({ number: { type: 'string', minLength: 1, maxLength: 64 } }, ['number']),
  },
  {
    path: 'students',
    noun: 'Student',
    schema: 'Student',
    read: 'finance:read',
    create: strict(
      { registrationNumberId: uuid, userId: { type: 'string', maxLength: 64 }, currentProgramLevelId: { type: 'string', maxLength: 64 } },
      ['registrationNumberId'],
    ),
    update: strict({
      userId: { type: ['string', 'null'], maxLength: 64 },
      currentProgramLevelId: { type: ['string', 'null'], maxLength: 64 },
    }),
  },
];

function recordPaths(record: RecordDoc) {
  const base = `/api/v1/finance/${record.path}`;
  const id = pathParam('id', `${record.noun} id.`, uuid);
  const one = ref(record.schema);
  return {
    [base]: {
      get: operation({
        operationId: `list${record.noun}s`,
        summary: `Every ${record.path.replace('-', ' ').replace(/s$/, '')}`,
        tags,
        permission: record.read,
        responses: {
          '200': json('All of them (these tables are small).', {
            type: 'object',
            required: ['items'],
            properties: { items: { type: 'array', items: one } },
          }),
        },
      }),
      post: operation({
        operationId: `create${record.noun}`,
        summary: `Create a ${record.path.replace('-', ' ').replace(/s$/, '')}`,
        tags,
        permission: 'finance:write',
        parameters: [idempotencyKeyHeader],
        requestBody: jsonBody(record.create),
        responses: {
          '201': json('Created; `Location` names it.', one, etagHeader),
          '409': problem('A unique value is taken, or the Idempotency-Key was used with another request.'),
        },
      }),
    },
    [`${base}/{id}`]: {
      get: operation({
        operationId: `get${record.noun}`,
        summary: `One ${record.path.replace('-', ' ').replace(/s$/, '')}`,
        tags,
        permission: record.read,
        parameters: [id],
        responses: { '200': json('The record.', one, etagHeader), '404': problem('No such record (or not yours).') },
      }),
      ...(record.update && {
        patch: operation({
          operationId: `update${record.noun}`,
          summary: `Change a ${record.path.replace('-', ' ').replace(/s$/, '')}`,
          tags,
          permission: 'finance:write',
          parameters: [id, ifMatchHeader],
          requestBody: jsonBody({ ...record.update, minProperties: 1 }),
          responses: {
            '200': json('The updated record, with its new ETag.', one, etagHeader),
            '404': problem('No such record.'),
            '409': problem('A unique value is taken.'),
            '412': problem('The If-Match version is not the current one.'),
            '428': problem('If-Match is required.'),
          },
        }),
      }),
    },
  };
}

const statementParam = pathParam('id', 'Student id.', uuid);

export const financeRecordPaths: Record<string, Record<string, unknown>> = {
  ...Object.fromEntries(RECORDS.flatMap((record) => Object.entries(recordPaths(record)))),
  '/api/v1/finance/students/{id}/statement': {
    get: operation({
      operationId: 'getStudentStatement',
      summary: "A student's financial statement with its running balance",
      tags,
      permission: 'finance:read',
      parameters: [statementParam],
      responses: {
        '200': json('Lines in (date, creation) order.', {
          type: 'object',
          required: ['studentId', 'lines', 'balance'],
          properties: {
            studentId: uuid,
            lines: { type: 'array', items: ref('StatementLine') },
            balance: { type: 'integer', description: 'The last line’s balance; 0 when empty.' },
          },
        }),
        '404': problem('No such student (or not yours).'),
      },
    }),
    post: operation({
      operationId: 'addStatementLine',
      summary: 'Post a charge (debit) or a credit to a statement',
      tags,
      permission: 'finance:write',
      parameters: [statementParam, idempotencyKeyHeader],
      requestBody: jsonBody(
        strict(
          {
            date: { type: 'string', format: 'date' },
            description: { type: 'string', minLength: 1, maxLength: 500 },
            debit: { type: 'integer', minimum: 1 },
            credit: { type: 'integer', minimum: 1 },
            semesterId: { type: 'string', maxLength: 64 },
          },
          ['date', 'description'],
        ),
      ),
      responses: { '201': json('The new line.', ref('StatementLine')), '404': problem('No such student.') },
    }),
  },
};
