import { randomUUID } from 'node:crypto';
import { QueryTypes, type Sequelize, type Transaction as DbTransaction } from 'sequelize';
import type { financeV1 } from '@libs/contracts';
import type { Statement } from '@libs/db';
import { referenceLookup, type Reference } from '../validation/references';

interface TransactionRow {
  id: string;
  student_id: string | null;
  date: string;
  category_id: string;
  category_name: string;
  payee: string;
  amount: string;
  notes: string;
  account_id: string;
  account_name: string;
  made_by: string;
  reversal_of: string | null;
  reversed_by: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

/**
 * The API's view of transactions read from `source` (the table, or rows an INSERT … RETURNING gave). `reversed_by`
 * is read from the reversal's link (unique, so indexed) rather than stored twice.
 */
const selectFrom = (source: string) => `SELECT t.id, t.student_id, to_char(t.date, 'YYYY-MM-DD') AS date, t.category_id,
  c.name AS category_name, t.payee, t.amount::text AS amount, t.notes, t.account_id, a.name AS account_name, t.made_by,
  t.reversal_of, (SELECT r.id FROM transactions r WHERE r.reversal_of = t.id) AS reversed_by,
  t.version, t.created_at, t.updated_at
  FROM ${source} t JOIN categories c ON c.id = t.category_id JOIN accounts a ON a.id = t.account_id`;
const SELECT = selectFrom('transactions');

export function toTransaction(row: TransactionRow): financeV1.Transaction {
  return {
    id: row.id,
    studentId: row.student_id ?? '',
    date: row.date,
    categoryId: row.category_id,
    categoryName: row.category_name,
    payee: row.payee,
    amount: row.amount,
    notes: row.notes,
    accountId: row.account_id,
    accountName: row.account_name,
    madeBy: row.made_by,
    reversalOf: row.reversal_of ?? '',
    reversedBy: row.reversed_by ?? '',
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    version: row.version,
  };
}

/** A validated transaction as stored: no student is null, text is trimmed. */
export interface TransactionFields {
  studentId: string | null;
  date: string;
  categoryId: string;
  payee: string;
  amount: string;
  notes: string;
  accountId: string;
}

export const fieldsOf = (input: financeV1.TransactionInput): TransactionFields => ({
  studentId: input.studentId || null,
  date: input.date,
  categoryId: input.categoryId,
  payee: input.payee.trim(),
  amount: input.amount,
  notes: input.notes,
  accountId: input.accountId,
});

/** Inserts every item in one statement and returns them as the API shows them, in input order. */
export async function insertTransactions(
  sequelize: Sequelize,
  items: TransactionFields[],
  madeBy: string,
  transaction: DbTransaction,
): Promise<financeV1.Transaction[]> {
  const rows = items.map((item) => ({ ...item, id: randomUUID(), madeBy }));
  const inserted = await sequelize.query<TransactionRow>(
    `WITH inserted AS (
       INSERT INTO transactions (id, student_id, date, category_id, payee, amount, notes, account_id, made_by)
       SELECT id, "studentId", date, "categoryId", payee, amount, notes, "accountId", "madeBy"
         FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, "studentId" uuid, date date, "categoryId" uuid, payee text,
                                                 amount bigint, notes text, "accountId" uuid, "madeBy" text)
       RETURNING *)
     ${selectFrom('inserted')}`,
    { bind: [JSON.stringify(rows)], type: QueryTypes.SELECT, transaction },
  );
  const byId = new Map(inserted.map((row) => [row.id, toTransaction(row)]));
  return rows.map((row) => byId.get(row.id) as financeV1.Transaction);
}

/**
 * One statement for a create's whole write (a create's hot path): find and lock the rows the transaction
 * points at and, only if all are there, insert it and return it as the API shows it. When some are missing,
 * nothing is inserted and `found` says which were there.
 */
export function createTransactionStatement(item: TransactionFields, madeBy: string, references: Reference[]): Statement {
  const lookup = referenceLookup(references);
  const p = (n: number) => `$${lookup.values.length + n}`;
  return {
    name: `finance.create-transaction(${lookup.tables.join(',')})`,
    text: `WITH ${lookup.ctes},
       inserted AS (
         INSERT INTO transactions (id, student_id, date, category_id, payee, amount, notes, account_id, made_by)
         SELECT ${p(1)}::uuid, ${p(2)}::uuid, ${p(3)}::date, ${p(4)}::uuid, ${p(5)}, ${p(6)}::bigint, ${p(7)}, ${p(8)}::uuid, ${p(9)}
          WHERE (SELECT count(*) FROM found) = ${lookup.expected}
         RETURNING *)
     SELECT (SELECT array_agg(tbl || ':' || id) FROM found) AS found, shown.*
       FROM (SELECT) AS one LEFT JOIN (${selectFrom('inserted')}) AS shown ON true`,
    values: [
      ...lookup.values,
      randomUUID(),
      item.studentId,
      item.date,
      item.categoryId,
      item.payee,
      item.amount,
      item.notes,
      item.accountId,
      madeBy,
    ],
  };
}

/** A row of createTransactionStatement: the references found (`table:id`), and the inserted row's columns (all null if none). */
export interface CreateAnswer extends Omit<TransactionRow, 'id'> {
  found: string[] | null;
  id: string | null;
}

/** The references found, and the transaction as the API shows it if it was inserted. */
export const createdFrom = (row: CreateAnswer): { found: string[]; created: financeV1.Transaction | undefined } => ({
  found: row.found ?? [],
  created: row.id === null ? undefined : toTransaction(row as TransactionRow),
});

/**
 * Locks the rows first, in one statement, and reads them in the next. One statement cannot do both: the row a
 * waiting `FOR UPDATE` gets is re-read, but `reversed_by` comes from a subquery on the statement's snapshot, taken
 * before the wait (READ COMMITTED), so it would miss a reversal committed meanwhile and a second reversal, update or
 * delete would go ahead.
 */
async function lockRows(sequelize: Sequelize, ids: string[], transaction: DbTransaction): Promise<void> {
  await sequelize.query('SELECT 1 FROM transactions WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE', { bind: [ids], transaction });
}

export async function findTransaction(
  sequelize: Sequelize,
  id: string,
  options: { transaction?: DbTransaction; lock?: boolean } = {},
): Promise<financeV1.Transaction | undefined> {
  if (options.lock && options.transaction) await lockRows(sequelize, [id], options.transaction);
  const [row] = await sequelize.query<TransactionRow>(`${SELECT} WHERE t.id = $1`, {
    bind: [id],
    type: QueryTypes.SELECT,
    transaction: options.transaction,
  });
  return row && toTransaction(row);
}

/** Locks and returns the rows with these ids (those that exist). */
export async function lockTransactions(
  sequelize: Sequelize,
  ids: string[],
  transaction: DbTransaction,
): Promise<financeV1.Transaction[]> {
  await lockRows(sequelize, ids, transaction);
  const rows = await sequelize.query<TransactionRow>(`${SELECT} WHERE t.id = ANY($1::uuid[]) ORDER BY t.id`, {
    bind: [ids],
    type: QueryTypes.SELECT,
    transaction,
  });
  return rows.map(toTransaction);
}

/** Writes every field and bumps the version; the caller holds the row lock. */
export async function updateTransaction(
  sequelize: Sequelize,
  id: string,
  fields: TransactionFields,
  transaction: DbTransaction,
): Promise<void> {
  await sequelize.query(
    `UPDATE transactions SET student_id = $2, date = $3, category_id = $4, payee = $5, amount = $6::bigint, notes = $7,
            account_id = $8, version = version + 1, updated_at = now()
      WHERE id = $1`,
    {
      bind: [id, fields.studentId, fields.date, fields.categoryId, fields.payee, fields.amount, fields.notes, fields.accountId],
      transaction,
    },
  );
}

/**
 * Inserts the opposite of `original` (the caller holds its row lock), linked to it, dated the day it is made in UTC:
 * a reversal corrects the ledger from today on and leaves the period already exported as it was.
 */
export async function insertReversal(
  sequelize: Sequelize,
  original: financeV1.Transaction,
  change: { reason: string; madeBy: string },
  transaction: DbTransaction,
): Promise<financeV1.Transaction> {
  const [row] = await sequelize.query<TransactionRow>(
    `WITH inserted AS (
       INSERT INTO transactions (id, student_id, date, category_id, payee, amount, notes, account_id, made_by, reversal_of)
       SELECT $1::uuid, student_id, (now() AT TIME ZONE 'UTC')::date, category_id, payee, -amount, $2, account_id, $3, id
         FROM transactions WHERE id = $4::uuid
       RETURNING *)
     ${selectFrom('inserted')}`,
    { bind: [randomUUID(), change.reason, change.madeBy, original.id], type: QueryTypes.SELECT, transaction },
  );
  return toTransaction(row);
}

export async function deleteTransactions(sequelize: Sequelize, ids: string[], transaction: DbTransaction): Promise<void> {
  await sequelize.query('DELETE FROM transactions WHERE id = ANY($1::uuid[])', { bind: [ids], transaction });
}

export interface TransactionFilter {
  from: string | null;
  to: string | null;
  accountId: string | null;
  studentId: string | null;
  /** Keyset position: the (date, id) of the last row already served. */
  after: [string, string] | undefined;
  limit: number;
}

/** Transactions in (date, id) order, at most `limit`. */
export async function listTransactions(sequelize: Sequelize, filter: TransactionFilter): Promise<financeV1.Transaction[]> {
  const rows = await sequelize.query<TransactionRow>(
    `${SELECT}
      WHERE ($1::date IS NULL OR t.date >= $1::date) AND ($2::date IS NULL OR t.date <= $2::date)
        AND ($3::uuid IS NULL OR t.account_id = $3::uuid) AND ($4::uuid IS NULL OR t.student_id = $4::uuid)
        AND ($5::date IS NULL OR (t.date, t.id) > ($5::date, $6::uuid))
      ORDER BY t.date, t.id LIMIT $7`,
    {
      bind: [
        filter.from,
        filter.to,
        filter.accountId,
        filter.studentId,
        filter.after?.[0] ?? null,
        filter.after?.[1] ?? null,
        filter.limit,
      ],
      type: QueryTypes.SELECT,
    },
  );
  return rows.map(toTransaction);
}
