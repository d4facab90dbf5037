import { z } from 'zod';
import { FREE_TEXT } from '@libs/safe-text';
import { FILE_LIMITS, FINANCE_LIMITS as LIMITS } from './limits';
import { isLocalDate, LOCAL_DATE, LOCAL_DATE_MESSAGE } from './scheduling-fields';

/**
 * The finance API's request bodies and the rules of their fields. The gateway
 * validates requests against these (and documents them); the finance service
 * parses what reaches it over gRPC against the same schemas (financeInput),
 * then checks what only it can: that references exist, versions match.
 */

export const uuid = z.uuid({ message: 'must be a UUID' });

/** Text of at most `max` characters; `required` text must hold more than blanks. */
export function text(max: number, options: { required?: boolean } = {}) {
  const bounded = z.string().max(max, { message: `must be at most ${max} characters`, abort: true });
  const present = options.required ? bounded.refine((value) => value.trim() !== '', { message: 'is required', abort: true }) : bounded;
  return present.refine(FREE_TEXT.accepts, { message: FREE_TEXT.message, abort: true });
}

/** A real calendar date, YYYY-MM-DD, within the years the API takes. */
export const isoDate = z
  .string()
  .regex(LOCAL_DATE, { message: LOCAL_DATE_MESSAGE, abort: true })
  .refine(isLocalDate, { message: LOCAL_DATE_MESSAGE, abort: true })
  // Never reached past the date's own checks; it states the length, which a query parameter's bound reads (queryOf).
  .max(10, { message: LOCAL_DATE_MESSAGE })
  .meta({ format: 'date' });

const AMOUNT_MESSAGE = 'must be an integer number of minor units';
/** Amounts are integer minor units; a fraction, a float or a string is refused. */
export const amount = z
  .number({ message: AMOUNT_MESSAGE })
  .int({ message: AMOUNT_MESSAGE, abort: true })
  .min(-LIMITS.maxAbsAmount, { message: 'is too large' })
  .max(LIMITS.maxAbsAmount, { message: 'is too large' });

export const positiveAmount = amount.refine((value) => value > 0, { message: 'must be a positive number of minor units' });

export const transactionFields = {
  studentId: uuid.nullable().meta({ description: 'null removes the student (PATCH).' }),
  date: isoDate,
  categoryId: uuid,
  payee: text(LIMITS.payee, { required: true }),
  amount: amount.meta({ description: 'Minor units (cents). An integer: a fraction or a float is refused.' }),
  notes: text(LIMITS.notes).nullable().meta({ description: 'null (or "") clears the notes (PATCH).' }),
  accountId: uuid,
};

/** A partial update: strict, and with at least one field. */
export const patchOf = <S extends z.ZodRawShape>(shape: S) =>
  z
    .object(shape)
    .partial()
    .strict()
    .refine((body) => Object.keys(body).length > 0, { message: 'send at least one field to change' });

export const newTransaction = z
  .object({ ...transactionFields, studentId: transactionFields.studentId.optional(), notes: transactionFields.notes.optional() })
  .strict()
  .meta({ id: 'NewTransaction' });

export const transactionPatch = patchOf(transactionFields).meta({ id: 'TransactionPatch' });

export const bulkCreate = z
  .array(newTransaction)
  .min(1, { message: 'must hold at least one item' })
  .max(LIMITS.bulkItems, { message: `must hold at most ${LIMITS.bulkItems} items` });

/** Ids to delete at once; a repeated id is refused, as deleting it twice cannot be meant. */
export const bulkDelete = z
  .array(uuid)
  .min(1, { message: 'must hold at least one id' })
  .max(LIMITS.bulkItems, { message: `must hold at most ${LIMITS.bulkItems} ids` })
  .superRefine((ids, context) => {
    const seen = new Set<string>();
    ids.forEach((id, index) => {
      if (seen.has(id.toLowerCase())) context.addIssue({ code: 'custom', path: [index], message: 'repeats an earlier id' });
      seen.add(id.toLowerCase());
    });
  });

export const PAYMENT_STATUSES = ['pending', 'processed', 'resolved', 'reversed'] as const;
export const PAYMENT_OUTCOMES = ['accepted', 'rejected'] as const;

/** The filters of the transaction list; absent means unfiltered. */
export const transactionFilters = z.object({
  from: isoDate.optional(),
  to: isoDate.optional(),
  accountId: uuid.optional(),
});

/** The filters of the payment list. */
export const paymentFilters = z.object({
  status: z.enum(PAYMENT_STATUSES, { message: `must be one of ${PAYMENT_STATUSES.join(', ')}` }).optional(),
  studentId: uuid.optional(),
});

export const paymentSubmission = z
  .object({
    studentId: uuid.optional(),
    amount: positiveAmount.meta({ description: 'Minor units (cents).' }),
    description: text(LIMITS.description).optional(),
    date: isoDate,
    fileIds: z
      .array(uuid)
      .max(FILE_LIMITS.perPayment, { message: `must name at most ${FILE_LIMITS.perPayment} files` })
      .optional()
      .meta({
        description:
          `Up to ${FILE_LIMITS.perPayment} files uploaded by the same user with \`POST /api/v1/files\` (purpose \`payment_proof\`) and not named by ` +
          `a payment yet: the payment owns them from now on.`,
      }),
  })
  .strict();

/** What an uploaded file is for: the requests that may name it (`POST /api/v1/files`). */
export const FILE_PURPOSES = ['payment_proof'] as const;
export const filePurpose = z.enum(FILE_PURPOSES, { message: `must be ${FILE_PURPOSES.join(' or ')}` });

export const paymentProcessing = z
  .object({
    outcome: z.enum(PAYMENT_OUTCOMES, { message: `must be ${PAYMENT_OUTCOMES.join(' or ')}` }),
    note: text(LIMITS.note).optional(),
  })
  .strict();

export const paymentResolution = z.object({ note: text(LIMITS.note).optional() }).strict();

const reason = text(LIMITS.note, { required: true }).meta({ description: 'Why it is reversed; kept with the reversal.' });

/** Why an accepted payment is reversed: required, as an auditor will ask. */
export const reversal = z.object({ reason }).strict().meta({ id: 'Reversal' });

/** The transaction to reverse, and why. */
export const transactionReversal = z.object({ transactionId: uuid, reason }).strict().meta({ id: 'TransactionReversal' });

export const statementLine = z
  .object({
    date: isoDate,
    description: text(LIMITS.description, { required: true }),
    debit: amount.optional(),
    credit: amount.optional(),
    semesterId: text(LIMITS.idText).optional(),
  })
  .strict()
  .refine(({ debit = 0, credit = 0 }) => debit >= 0 && credit >= 0 && debit > 0 !== credit > 0, {
    message: 'give exactly one of debit and credit, as a positive amount',
  });

const name = text(LIMITS.name, { required: true });
const idText = text(LIMITS.idText);

/** The supporting records: what creating one takes, and what a PATCH may change (null clears). */
export const recordBodies = {
  account: {
    create: z.object({ name, userId: idText.optional() }).strict(),
    update: patchOf({ name, userId: idText.nullable() }),
  },
  category: {
    create: z.object({ name }).strict(),
    update: patchOf({ name }),
  },
  registrationNumber: {
    create: z.object({ number: text(LIMITS.idText, { required: true }) }).strict(),
  },
  student: {
    create: z.object({ registrationNumberId: uuid, userId: idText.optional(), currentProgramLevelId: idText.optional() }).strict(),
    update: patchOf({ userId: idText.nullable(), currentProgramLevelId: idText.nullable() }),
  },
};
