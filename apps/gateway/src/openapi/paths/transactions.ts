import { json, operation, pathParam, problem, ref } from '../builders';

const uuid = { type: 'string', format: 'uuid' };
const date = { type: 'string', format: 'date' };
const minorUnits = {
  type: 'integer',
  description: 'Minor units (cents): negative is money out, positive money in.',
};

export const transactionSchemas = {
  Transaction: {
    type: 'object',
    required: ['id', 'studentId', 'date', 'categoryId', 'payee', 'amount', 'notes', 'accountId', 'madeBy', 'createdAt', 'updatedAt', 'version'],
    properties: {
      id: uuid,
      studentId: { oneOf: [uuid, { type: 'null' }] },
      date,
      categoryId: uuid,
      payee: { type: 'string' },
      amount: minorUnits,
      notes: { type: 'string' },
      accountId: uuid,
      madeBy: { type: 'string', description: 'The user id of whoever made the change.' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
      version: { type: 'integer', minimum: 1 },
    },
  },
  NewTransaction: {
    type: 'object',
    additionalProperties: false,
    required: ['date', 'categoryId', 'payee', 'amount', 'accountId'],
    properties: {
      studentId: { oneOf: [uuid, { type: 'null' }] },
      date,
      categoryId: uuid,
      payee: { type: 'string', minLength: 1, maxLength: 200 },
      amount: minorUnits,
      notes: { type: 'string', maxLength: 2000 },
      accountId: uuid,
    },
  },
};

export const transactionPaths = {
  '/api/v1/transactions': {
    post: operation({
      operationId: 'createTransaction',
      summary: 'Create a transaction',
      tags: ['Finance'],
      permission: 'finance:write',
      requestBody: { required: true, content: { 'application/json': { schema: ref('NewTransaction') } } },
      responses: {
        '201': json('Created; `Location` names it.', ref('Transaction')),
        '413': problem('The body is over the size limit.'),
        '415': problem('The body is not JSON.'),
      },
    }),
  },
  '/api/v1/transactions/{id}': {
    get: operation({
      operationId: 'getTransaction',
      summary: 'One transaction',
      tags: ['Finance'],
      permission: 'finance:read',
      parameters: [pathParam('id', 'Transaction id.', uuid)],
      responses: { '200': json('The transaction.', ref('Transaction')), '404': problem('No such transaction.') },
    }),
  },
};
