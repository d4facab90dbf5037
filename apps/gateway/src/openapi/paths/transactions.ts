import {
  cursorParam,
  etagHeader,
  idempotencyKeyHeader,
  ifMatchHeader,
  json,
  jsonBody,
  operation,
  pathParam,
  problem,
  queryParam,
  ref,
  type OperationSpec,
  type Schema,
} from '../builders';

const uuid = { type: 'string', format: 'uuid' };
const ids = { type: 'object', required: ['ids'], properties: { ids: { type: 'array', items: uuid } } };
const tags = ['Finance'];
const finance = (spec: Omit<OperationSpec, 'tags'>) => operation({ ...spec, tags });
const idParam = (what: string) => pathParam('id', `${what} id.`, uuid);
const limitParam = queryParam('limit', { type: 'integer', minimum: 1, maximum: 500, default: 50 }, 'Page size.');
const page = (key: string, item: Schema): Schema => ({
  type: 'object',
  required: [key],
  properties: { [key]: { type: 'array', items: item }, nextCursor: { type: 'string' } },
});
const conflictOnKey = { '409': problem('The Idempotency-Key was used with another request.') };
const paymentMove = (description: string) => ({
  '200': json(description, ref('Payment')),
  '404': problem('No such payment (or not yours).'),
  '409': problem('Not allowed from the payment’s status: pending → processed → resolved.'),
});

export const transactionPaths = {
  '/api/v1/transactions': {
    get: finance({
      operationId: 'listTransactions',
      summary: 'Transactions in (date, id) order; a student sees only their own',
      permission: 'finance:read',
      parameters: [
        queryParam('from', { type: 'string', format: 'date' }, 'Inclusive first date, YYYY-MM-DD.'),
        queryParam('to', { type: 'string', format: 'date' }, 'Inclusive last date, YYYY-MM-DD.'),
        queryParam('accountId', uuid, 'Only this account.'),
        limitParam,
        cursorParam,
      ],
      responses: { '200': json('A page of transactions.', page('transactions', ref('Transaction'))) },
    }),
    post: finance({
      operationId: 'createTransaction',
      summary: 'Create a transaction',
      description: 'The account, category and student must exist (else 400 naming the field). Writes one audit event.',
      permission: 'finance:write',
      parameters: [idempotencyKeyHeader],
      requestBody: jsonBody(ref('NewTransaction')),
      responses: {
        '201': json('Created; `Location` names it.', ref('Transaction'), etagHeader),
        '413': problem('The body is over the size limit.'),
        '415': problem('The body is not JSON.'),
        ...conflictOnKey,
      },
    }),
  },
  '/api/v1/transactions/bulk-create': {
    post: finance({
      operationId: 'bulkCreateTransactions',
      summary: 'Create up to 1000 transactions, all or nothing',
      description: 'A bad item fails the whole request with a 400 naming its index (`[417].categoryId`). One audit event lists every id.',
      permission: 'finance:write',
      parameters: [idempotencyKeyHeader],
      requestBody: jsonBody({ type: 'array', minItems: 1, maxItems: 1000, items: ref('NewTransaction') }),
      responses: { '201': json('The new ids, in input order.', ids), ...conflictOnKey },
    }),
  },
  '/api/v1/transactions/bulk-delete': {
    post: finance({
      operationId: 'bulkDeleteTransactions',
      summary: 'Delete up to 1000 transactions, all or nothing',
      permission: 'finance:delete',
      parameters: [idempotencyKeyHeader],
      requestBody: jsonBody({ type: 'array', minItems: 1, maxItems: 1000, items: uuid }),
      responses: { '200': json('The deleted ids.', ids), ...conflictOnKey },
    }),
  },
  '/api/v1/transactions/{id}': {
    get: finance({
      operationId: 'getTransaction',
      summary: 'One transaction',
      permission: 'finance:read',
      parameters: [idParam('Transaction')],
      responses: {
        '200': json('The transaction.', ref('Transaction'), etagHeader),
        '404': problem('No such transaction (or not yours).'),
      },
    }),
    patch: finance({
      operationId: 'updateTransaction',
      summary: 'Change some fields of a transaction',
      permission: 'finance:write',
      parameters: [idParam('Transaction'), ifMatchHeader],
      requestBody: jsonBody(ref('TransactionPatch')),
      responses: {
        '200': json('The updated transaction, with its new ETag.', ref('Transaction'), etagHeader),
        '404': problem('No such transaction.'),
        '412': problem('The If-Match version is not the current one: fetch again and reapply.'),
        '428': problem('If-Match is required.'),
      },
    }),
    delete: finance({
      operationId: 'deleteTransaction',
      summary: 'Delete a transaction',
      permission: 'finance:delete',
      parameters: [idParam('Transaction')],
      responses: {
        '200': json('The deleted id.', { type: 'object', required: ['id'], properties: { id: uuid } }),
        '404': problem('No such transaction.'),
      },
    }),
  },
  '/api/v1/transactions/payments': {
    get: finance({
      operationId: 'listPayments',
      summary: 'Proofs of payment, oldest first; a student sees only their own',
      permission: 'finance:read',
      parameters: [
        queryParam('status', { enum: ['pending', 'processed', 'resolved'] }, 'Only this status.'),
        queryParam('studentId', uuid, 'Only this student.'),
        limitParam,
        cursorParam,
      ],
      responses: { '200': json('A page of payments.', page('payments', ref('Payment'))) },
    }),
    post: finance({
      operationId: 'submitPayment',
      summary: 'Submit a proof of payment (pending)',
      description: 'A student submits for themselves (`studentId` may be left out); bursars and admins name the student.',
      permission: 'payments:submit',
      parameters: [idempotencyKeyHeader],
      requestBody: jsonBody({
        type: 'object',
        additionalProperties: false,
        required: ['amount', 'date'],
        properties: {
          studentId: uuid,
          amount: { type: 'integer', minimum: 1, description: 'Minor units (cents).' },
          description: { type: 'string', maxLength: 500 },
          date: { type: 'string', format: 'date' },
        },
      }),
      responses: { '201': json('The payment, pending.', ref('Payment')), ...conflictOnKey },
    }),
  },
  '/api/v1/transactions/payments/{id}': {
    patch: finance({
      operationId: 'processPayment',
      summary: 'Process a pending payment: accepted or rejected',
      description: "An accepted payment credits the student's statement in the same database transaction.",
      permission: 'finance:write',
      parameters: [idParam('Payment')],
      requestBody: jsonBody({
        type: 'object',
        additionalProperties: false,
        required: ['outcome'],
        properties: { outcome: { enum: ['accepted', 'rejected'] }, note: { type: 'string', maxLength: 1000 } },
      }),
      responses: paymentMove('The payment, now processed.'),
    }),
  },
  '/api/v1/transactions/payments/{id}/resolve': {
    patch: finance({
      operationId: 'resolvePayment',
      summary: 'Resolve a processed payment',
      permission: 'finance:write',
      parameters: [idParam('Payment')],
      requestBody: jsonBody(
        { type: 'object', additionalProperties: false, properties: { note: { type: 'string', maxLength: 1000 } } },
        false,
      ),
      responses: paymentMove('The payment, now resolved.'),
    }),
  },
};
