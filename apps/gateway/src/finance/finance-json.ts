import type { financeV1 } from '@libs/contracts';

/** JSON shapes of the finance area: the field names clients know, amounts as integers of minor units, absent values as null. */

const orNull = (value: string) => value || null;

export function toTransactionJson(transaction: financeV1.Transaction) {
  return {
    id: transaction.id,
    studentId: orNull(transaction.studentId),
    date: transaction.date,
    categoryId: transaction.categoryId,
    category: { id: transaction.categoryId, name: transaction.categoryName },
    payee: transaction.payee,
    amount: Number(transaction.amount),
    notes: transaction.notes,
    accountId: transaction.accountId,
    account: { id: transaction.accountId, name: transaction.accountName },
    madeBy: transaction.madeBy,
    createdAt: transaction.createdAt,
    updatedAt: transaction.updatedAt,
    version: transaction.version,
  };
}

export function toPaymentJson(payment: financeV1.Payment) {
  return {
    id: payment.id,
    studentId: payment.studentId,
    userId: payment.userId,
    amount: Number(payment.amount),
    description: payment.description,
    date: payment.date,
    status: payment.status,
    outcome: orNull(payment.outcome),
    note: payment.note,
    processedBy: orNull(payment.processedBy),
    processedAt: orNull(payment.processedAt),
    resolvedBy: orNull(payment.resolvedBy),
    resolvedAt: orNull(payment.resolvedAt),
    createdAt: payment.createdAt,
    updatedAt: payment.updatedAt,
  };
}

export const toAccountJson = (account: financeV1.Account) => ({ ...account, userId: orNull(account.userId) });

export const toStudentJson = (student: financeV1.Student) => ({
  ...student,
  userId: orNull(student.userId),
  currentProgramLevelId: orNull(student.currentProgramLevelId),
});

export const toStatementLineJson = (line: financeV1.StatementLine) => ({
  ...line,
  semesterId: orNull(line.semesterId),
  debit: Number(line.debit),
  credit: Number(line.credit),
  balance: Number(line.balance),
});
