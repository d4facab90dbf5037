import { z } from 'zod';

/** Body field rules shared by the finance routes; the finance service checks again (existence, calendar dates). */
export const uuid = z.uuid({ message: 'must be a UUID' });
export const text = (max: number) => z.string().max(max, { message: `must be at most ${max} characters` });
export const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date written YYYY-MM-DD' });

/** Amounts are integer minor units; a fraction, a float or a string is refused before any call. */
export const amount = z
  .number({ message: 'must be an integer number of minor units' })
  .int({ message: 'must be an integer number of minor units' })
  .refine(Number.isSafeInteger, { message: 'is too large' });

export const transactionFields = {
  studentId: uuid.nullable(),
  date: isoDate,
  categoryId: uuid,
  payee: text(200).min(1, { message: 'is required' }),
  amount,
  notes: text(2000),
  accountId: uuid,
};

export const newTransaction = z
  .object({ ...transactionFields, studentId: transactionFields.studentId.optional(), notes: transactionFields.notes.optional() })
  .strict();

export type NewTransactionBody = z.infer<typeof newTransaction>;

export const toTransactionInput = (body: NewTransactionBody) => ({
  studentId: body.studentId ?? '',
  date: body.date,
  categoryId: body.categoryId,
  payee: body.payee,
  amount: String(body.amount),
  notes: body.notes ?? '',
  accountId: body.accountId,
});
