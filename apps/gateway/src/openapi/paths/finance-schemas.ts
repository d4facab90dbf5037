import type { Schema } from '../builders';

const uuid = { type: 'string', format: 'uuid' };
const nullableUuid = { type: ['string', 'null'], format: 'uuid' };
const date = { type: 'string', format: 'date' };
const dateTime = { type: 'string', format: 'date-time' };
const text = { type: 'string' };
const nullableText = { type: ['string', 'null'] };
const version = { type: 'integer', minimum: 1, description: 'Grows with every update; the ETag carries it.' };
const minorUnits = (description: string) => ({ type: 'integer', description: `Minor units (cents). ${description}` });
const named = { type: 'object', required: ['id', 'name'], properties: { id: uuid, name: text } };
const stamps = { createdAt: dateTime, updatedAt: dateTime };

/** Response shapes of the finance area (docs/FINANCE.md): SPEC.md §2 names, absent values as null. */
export const financeSchemas: Record<string, Schema> = {
  Transaction: {
    type: 'object',
    required: ['id', 'studentId', 'date', 'categoryId', 'category', 'payee', 'amount', 'notes', 'accountId', 'account', 'madeBy', 'createdAt', 'updatedAt', 'version'],
    properties: {
      id: uuid,
      studentId: nullableUuid,
      date,
      categoryId: uuid,
      category: named,
      payee: text,
      amount: minorUnits('Negative is money out, positive money in.'),
      notes: text,
      accountId: uuid,
      account: named,
      madeBy: { type: 'string', description: 'The user who created it.' },
      ...stamps,
      version,
    },
  },
  Payment: {
    type: 'object',
    description: 'A proof of payment: pending → processed (accepted or rejected) → resolved.',
    required: ['id', 'studentId', 'userId', 'amount', 'description', 'date', 'status', 'outcome', 'note', 'processedBy', 'processedAt', 'resolvedBy', 'resolvedAt', 'createdAt', 'updatedAt'],
    properties: {
      id: uuid,
      studentId: uuid,
      userId: { type: 'string', description: 'Who submitted it.' },
      amount: minorUnits('Positive.'),
      description: text,
      date,
      status: { enum: ['pending', 'processed', 'resolved'] },
      outcome: { enum: ['accepted', 'rejected', null] },
      note: text,
      processedBy: nullableText,
      processedAt: { type: ['string', 'null'], format: 'date-time' },
      resolvedBy: nullableText,
      resolvedAt: { type: ['string', 'null'], format: 'date-time' },
      ...stamps,
    },
  },
  Account: {
    type: 'object',
    required: ['id', 'name', 'userId', 'createdAt', 'updatedAt', 'version'],
    properties: { id: uuid, name: text, userId: nullableText, ...stamps, version },
  },
  FinanceCategory: {
    type: 'object',
    required: ['id', 'name', 'createdAt', 'updatedAt', 'version'],
    properties: { id: uuid, name: text, ...stamps, version },
  },
  RegistrationNumber: {
    type: 'object',
    required: ['id', 'number', 'createdAt', 'updatedAt'],
    properties: { id: uuid, number: text, ...stamps },
  },
  Student: {
    type: 'object',
    required: ['id', 'registrationNumberId', 'userId', 'currentProgramLevelId', 'createdAt', 'updatedAt', 'version'],
    properties: {
      id: uuid,
      registrationNumberId: uuid,
      userId: nullableText,
      currentProgramLevelId: nullableText,
      ...stamps,
      version,
    },
  },
  StatementLine: {
    type: 'object',
    required: ['id', 'studentId', 'semesterId', 'date', 'description', 'debit', 'credit', 'balance', 'createdAt', 'updatedAt'],
    properties: {
      id: uuid,
      studentId: uuid,
      semesterId: nullableText,
      date,
      description: text,
      debit: minorUnits('Money owed.'),
      credit: minorUnits('Money paid.'),
      balance: minorUnits('Running balance (credits minus debits) up to this line.'),
      ...stamps,
    },
  },
};

const transactionFields = {
  studentId: { ...nullableUuid, description: 'null removes the student (PATCH).' },
  date,
  categoryId: uuid,
  payee: { type: 'string', minLength: 1, maxLength: 200 },
  amount: minorUnits('An integer: a fraction or a float is refused.'),
  notes: { type: 'string', maxLength: 2000 },
  accountId: uuid,
};

/** Request bodies. Every body is strict: an unknown field is a 400. */
export const financeBodies: Record<string, Schema> = {
  NewTransaction: {
    type: 'object',
    additionalProperties: false,
    required: ['date', 'categoryId', 'payee', 'amount', 'accountId'],
    properties: transactionFields,
  },
  TransactionPatch: { type: 'object', additionalProperties: false, minProperties: 1, properties: transactionFields },
};
