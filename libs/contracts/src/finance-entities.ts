import { z } from 'zod';
import { FILE_PURPOSES } from './api/finance';
import { FILE_LIMITS } from './api/limits';
import type * as financeV1 from './generated/finance/v1/finance';

/**
 * The one JSON shape of each finance entity: what the API answers and what the audit log's
 * `before`/`after` hold. Amounts are integers of minor units (cents); an absent optional value
 * is null, never "" (gRPC messages cannot say null, so "" stands for it there).
 */

const uuid = z.uuid();
const date = z.iso.date();
const timestamp = z.iso.datetime();
/** Minor units (cents), as an integer. */
const minorUnits = (description: string) => z.int().meta({ description: `Minor units (cents). ${description}` });
const version = z.int().min(1).meta({ description: 'Grows with every update; the ETag carries it.' });
const named = z.object({ id: uuid, name: z.string() });
const stamps = { createdAt: timestamp, updatedAt: timestamp };

export const transactionJson = z.object({
  id: uuid,
  studentId: uuid.nullable(),
  date,
  categoryId: uuid,
  category: named,
  payee: z.string(),
  amount: minorUnits('Negative is money out, positive money in.'),
  notes: z.string().nullable(),
  accountId: uuid,
  account: named,
  madeBy: z.string().meta({ description: 'The user who created it.' }),
  reversalOf: uuid.nullable().meta({ description: 'The transaction this one reverses.' }),
  reversedBy: uuid.nullable().meta({ description: 'The transaction that reverses this one.' }),
  ...stamps,
  version,
});

/** A stored file, as a payment lists it and its audit events name it: what it is, never its bytes. */
export const fileJson = z.object({
  id: uuid,
  name: z.string().meta({ description: 'The uploader’s file name without folders and unsafe characters: a label, not a type.' }),
  type: z.enum(['application/pdf', 'image/jpeg', 'image/png']).meta({ description: 'Read from the content, never from the name or a header.' }),
  size: z.int().meta({ description: 'Bytes.' }),
  sha256: z.string().meta({ description: 'Hex SHA-256 of the content; the download’s ETag.' }),
});

export type FileJson = z.infer<typeof fileJson>;

export const toFileJson = (file: financeV1.StoredFile): FileJson => ({
  id: file.id,
  name: file.name,
  type: file.contentType as FileJson['type'],
  size: Number(file.size),
  sha256: file.sha256,
});

/** An upload's answer: the file, what it is for, and until when a request may name it. */
export const uploadedFileJson = fileJson.extend({
  purpose: z.enum(FILE_PURPOSES),
  createdAt: timestamp,
  expiresAt: timestamp.meta({ description: `Deleted then unless a request has named it (${FILE_LIMITS.unlinkedHours} h after the upload).` }),
});

export type UploadedFileJson = z.infer<typeof uploadedFileJson>;

export const toUploadedFileJson = (file: financeV1.StoredFile): UploadedFileJson => ({
  ...toFileJson(file),
  purpose: file.purpose as UploadedFileJson['purpose'],
  createdAt: file.createdAt,
  expiresAt: new Date(Date.parse(file.createdAt) + FILE_LIMITS.unlinkedHours * 3_600_000).toISOString(),
});

/** A proof of payment: pending → processed (accepted or rejected) → resolved; an accepted one may be reversed. */
export const paymentJson = z.object({
  id: uuid,
  studentId: uuid,
  userId: z.string().meta({ description: 'Who submitted it.' }),
  amount: minorUnits('Positive.'),
  description: z.string().nullable(),
  date,
  status: z.enum(['pending', 'processed', 'resolved', 'reversed']),
  outcome: z.enum(['accepted', 'rejected']).nullable(),
  note: z.string().nullable().meta({ description: "The bursar's note, if any." }),
  processedBy: z.string().nullable(),
  processedAt: timestamp.nullable(),
  resolvedBy: z.string().nullable(),
  resolvedAt: timestamp.nullable(),
  reversedBy: z.string().nullable(),
  reversedAt: timestamp.nullable(),
  reversalReason: z.string().nullable(),
  files: z.array(fileJson).meta({ description: 'The files submitted with it (`GET …/payments/{id}/files/{fileId}`), in the order named.' }),
  ...stamps,
});

export const accountJson = z.object({ id: uuid, name: z.string(), userId: z.string().nullable(), ...stamps, version });

export const categoryJson = z.object({ id: uuid, name: z.string(), ...stamps, version });

export const registrationNumberJson = z.object({ id: uuid, number: z.string(), ...stamps });

export const studentJson = z.object({
  id: uuid,
  registrationNumberId: uuid,
  userId: z.string().nullable(),
  currentProgramLevelId: z.string().nullable(),
  ...stamps,
  version,
});

/** One line of a student's statement; balance is the running balance (credits minus debits) up to this line. */
export const statementLineJson = z.object({
  id: uuid,
  studentId: uuid,
  semesterId: z.string().nullable(),
  date,
  description: z.string(),
  debit: minorUnits('Money owed.'),
  credit: minorUnits('Money paid.'),
  balance: minorUnits('Running balance (credits minus debits) up to this line.'),
  reversalOf: uuid.nullable().meta({ description: 'The line this one offsets (a reversed payment’s credit).' }),
  ...stamps,
});

export type TransactionJson = z.infer<typeof transactionJson>;
export type PaymentJson = z.infer<typeof paymentJson>;
export type AccountJson = z.infer<typeof accountJson>;
export type CategoryJson = z.infer<typeof categoryJson>;
export type RegistrationNumberJson = z.infer<typeof registrationNumberJson>;
export type StudentJson = z.infer<typeof studentJson>;
export type StatementLineJson = z.infer<typeof statementLineJson>;

/** "" is how a gRPC message says "no value". */
const orNull = (value: string): string | null => value || null;

export const toTransactionJson = (transaction: financeV1.Transaction): TransactionJson => ({
  id: transaction.id,
  studentId: orNull(transaction.studentId),
  date: transaction.date,
  categoryId: transaction.categoryId,
  category: { id: transaction.categoryId, name: transaction.categoryName },
  payee: transaction.payee,
  amount: Number(transaction.amount),
  notes: orNull(transaction.notes),
  accountId: transaction.accountId,
  account: { id: transaction.accountId, name: transaction.accountName },
  madeBy: transaction.madeBy,
  reversalOf: orNull(transaction.reversalOf),
  reversedBy: orNull(transaction.reversedBy),
  createdAt: transaction.createdAt,
  updatedAt: transaction.updatedAt,
  version: transaction.version,
});

export const toPaymentJson = (payment: financeV1.Payment): PaymentJson => ({
  id: payment.id,
  studentId: payment.studentId,
  userId: payment.userId,
  amount: Number(payment.amount),
  description: orNull(payment.description),
  date: payment.date,
  status: payment.status as PaymentJson['status'],
  outcome: orNull(payment.outcome) as PaymentJson['outcome'],
  note: orNull(payment.note),
  processedBy: orNull(payment.processedBy),
  processedAt: orNull(payment.processedAt),
  resolvedBy: orNull(payment.resolvedBy),
  resolvedAt: orNull(payment.resolvedAt),
  reversedBy: orNull(payment.reversedBy),
  reversedAt: orNull(payment.reversedAt),
  reversalReason: orNull(payment.reversalReason),
  files: payment.files.map(toFileJson),
  createdAt: payment.createdAt,
  updatedAt: payment.updatedAt,
});

export const toAccountJson = (account: financeV1.Account): AccountJson => ({
  id: account.id,
  name: account.name,
  userId: orNull(account.userId),
  createdAt: account.createdAt,
  updatedAt: account.updatedAt,
  version: account.version,
});

export const toCategoryJson = (category: financeV1.Category): CategoryJson => ({
  id: category.id,
  name: category.name,
  createdAt: category.createdAt,
  updatedAt: category.updatedAt,
  version: category.version,
});

export const toRegistrationNumberJson = (registrationNumber: financeV1.RegistrationNumber): RegistrationNumberJson => ({
  id: registrationNumber.id,
  number: registrationNumber.number,
  createdAt: registrationNumber.createdAt,
  updatedAt: registrationNumber.updatedAt,
});

export const toStudentJson = (student: financeV1.Student): StudentJson => ({
  id: student.id,
  registrationNumberId: student.registrationNumberId,
  userId: orNull(student.userId),
  currentProgramLevelId: orNull(student.currentProgramLevelId),
  createdAt: student.createdAt,
  updatedAt: student.updatedAt,
  version: student.version,
});

export const toStatementLineJson = (line: financeV1.StatementLine): StatementLineJson => ({
  id: line.id,
  studentId: line.studentId,
  semesterId: orNull(line.semesterId),
  date: line.date,
  description: line.description,
  debit: Number(line.debit),
  credit: Number(line.credit),
  balance: Number(line.balance),
  reversalOf: orNull(line.reversalOf),
  createdAt: line.createdAt,
  updatedAt: line.updatedAt,
});
