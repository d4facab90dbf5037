import { financeApi, type financeV1 } from '@libs/contracts';
import { amountOf } from '../validation/input';
import { given, type FieldChecks } from '@libs/validation';

/** A transaction as the finance API's schema takes it: amounts as numbers, absent values left out. */
export const apiTransaction = (input: financeV1.TransactionInput) => ({
  studentId: given(input.studentId),
  date: input.date,
  categoryId: input.categoryId,
  payee: input.payee,
  amount: amountOf(input.amount),
  notes: input.notes,
  accountId: input.accountId,
});

/** Checks one new transaction against the API's schema; `at` prefixes field names (`[3].` for bulk items). */
export function checkTransactionInput(problems: FieldChecks, input: financeV1.TransactionInput, at = ''): void {
  problems.parse(financeApi.newTransaction, apiTransaction(input), at);
}
