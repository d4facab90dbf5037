import { QueryTypes, type Sequelize, type Transaction as DbTransaction } from 'sequelize';
import type { financeV1 } from '@libs/contracts';

interface TransactionRow {
  id: string;
  student_id: string | null;
  date: string;
  category_id: string;
  payee: string;
  amount: string;
  notes: string;
  account_id: string;
  made_by: string;
  version: number;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, student_id, to_char(date, 'YYYY-MM-DD') AS date, category_id, payee, amount::text AS amount,
  notes, account_id, made_by, version, created_at, updated_at`;

export function toTransaction(row: TransactionRow): financeV1.Transaction {
  return {
    id: row.id,
    studentId: row.student_id ?? '',
    date: row.date,
    categoryId: row.category_id,
    payee: row.payee,
    amount: row.amount,
    notes: row.notes,
    accountId: row.account_id,
    madeBy: row.made_by,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    version: row.version,
  };
}

export interface NewTransaction {
  studentId: string | null;
  date: string;
  categoryId: string;
  payee: string;
  amount: string;
  notes: string;
  accountId: string;
  madeBy: string;
}

export async function insertTransaction(
  sequelize: Sequelize,
  input: NewTransaction,
  transaction: DbTransaction,
): Promise<financeV1.Transaction> {
  const [row] = await sequelize.query<TransactionRow>(
    `INSERT INTO transactions (student_id, date, category_id, payee, amount, notes, account_id, made_by)
     VALUES ($1, $2, $3, $4, $5::bigint, $6, $7, $8) RETURNING ${COLUMNS}`,
    {
      bind: [input.studentId, input.date, input.categoryId, input.payee, input.amount, input.notes, input.accountId, input.madeBy],
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  return toTransaction(row);
}

export async function findTransaction(sequelize: Sequelize, id: string): Promise<financeV1.Transaction | undefined> {
  const [row] = await sequelize.query<TransactionRow>(`SELECT ${COLUMNS} FROM transactions WHERE id = $1`, {
    bind: [id],
    type: QueryTypes.SELECT,
  });
  return row && toTransaction(row);
}

/** Which of the referenced rows are missing; locks them (KEY SHARE) so they cannot vanish before commit. */
export async function missingReferences(
  sequelize: Sequelize,
  references: { table: 'accounts' | 'categories' | 'students'; id: string | null; field: string }[],
  transaction: DbTransaction,
): Promise<string[]> {
  const missing: string[] = [];
  for (const reference of references) {
    if (reference.id === null) continue;
    const found = await sequelize.query(`SELECT 1 FROM ${reference.table} WHERE id = $1 FOR KEY SHARE`, {
      bind: [reference.id],
      type: QueryTypes.SELECT,
      transaction,
    });
    if (found.length === 0) missing.push(reference.field);
  }
  return missing;
}
