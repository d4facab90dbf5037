import type { financeV1 } from '@libs/contracts';
import type { FieldChecks } from '../validation/fields';

/** Limits shared by create, bulk create and update. */
const PAYEE_MAX = 200;
const NOTES_MAX = 2000;

/** Checks the shape of one new transaction; `at` prefixes field names (`[3].` for bulk items). */
export function checkTransactionInput(checks: FieldChecks, input: financeV1.TransactionInput, at = ''): void {
  checks
    .uuid(input.studentId, `${at}studentId`, { required: false })
    .date(input.date, `${at}date`)
    .uuid(input.categoryId, `${at}categoryId`, { required: true })
    .text(input.payee, `${at}payee`, { required: true, max: PAYEE_MAX })
    .amount(input.amount, `${at}amount`)
    .text(input.notes, `${at}notes`, { required: false, max: NOTES_MAX })
    .uuid(input.accountId, `${at}accountId`, { required: true });
}
