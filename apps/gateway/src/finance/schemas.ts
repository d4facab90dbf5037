import { z } from 'zod';

/** What the finance area answers (docs/FINANCE.md): amounts as integers of minor units, absent values as null. */

const uuid = z.guid();
const date = z.string().meta({ format: 'date' });
const dateTime = z.string().meta({ format: 'date-time' });
const nullableDateTime = z.string().nullable().meta({ format: 'date-time' });
const version = z.int().min(1).meta({ description: 'Grows with every update; the ETag carries it.' });
const minorUnits = (description: string) => z.int().meta({ description: `Minor units (cents). ${description}` });
const named = z.object({ id: uuid, name: z.string() });
const stamps = { createdAt: dateTime, updatedAt: dateTime };

export const transaction = z
  .object({
    id: uuid,
    studentId: uuid.nullable(),
    date,
    categoryId: uuid,
    category: named,
    payee: z.string(),
    amount: minorUnits('Negative is money out, positive money in.'),
    notes: z.string(),
    accountId: uuid,
    account: named,
    madeBy: z.string().meta({ description: 'The user who created it.' }),
    ...stamps,
    version,
  })
  .meta({ id: 'Transaction' });

export const payment = z
  .object({
    id: uuid,
    studentId: uuid,
    userId: z.string().meta({ description: 'Who submitted it.' }),
    amount: minorUnits('Positive.'),
    description: z.string(),
    date,
    status: z.enum(['pending', 'processed', 'resolved']),
    outcome: z.enum(['accepted', 'rejected']).nullable(),
    note: z.string(),
    processedBy: z.string().nullable(),
    processedAt: nullableDateTime,
    resolvedBy: z.string().nullable(),
    resolvedAt: nullableDateTime,
    ...stamps,
  })
  .meta({ id: 'Payment', description: 'A proof of payment: pending → processed (accepted or rejected) → resolved.' });

export const account = z
  .object({ id: uuid, name: z.string(), userId: z.string().nullable(), ...stamps, version })
  .meta({ id: 'Account' });

export const category = z.object({ id: uuid, name: z.string(), ...stamps, version }).meta({ id: 'FinanceCategory' });

export const registrationNumber = z.object({ id: uuid, number: z.string(), ...stamps }).meta({ id: 'RegistrationNumber' });

export const student = z
  .object({
    id: uuid,
    registrationNumberId: uuid,
    userId: z.string().nullable(),
    currentProgramLevelId: z.string().nullable(),
    ...stamps,
    version,
  })
  .meta({ id: 'Student' });

export const statementLine = z
  .object({
    id: uuid,
    studentId: uuid,
    semesterId: z.string().nullable(),
    date,
    description: z.string(),
    debit: minorUnits('Money owed.'),
    credit: minorUnits('Money paid.'),
    balance: minorUnits('Running balance (credits minus debits) up to this line.'),
    ...stamps,
  })
  .meta({ id: 'StatementLine' });

export const statement = z.object({
  studentId: uuid,
  lines: z.array(statementLine),
  balance: z.int().meta({ description: 'The last line’s balance; 0 when empty.' }),
});

export const ids = z.object({ ids: z.array(uuid) });
