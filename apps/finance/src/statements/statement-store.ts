import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { financeV1 } from '@libs/contracts';

interface LineRow {
  id: string;
  student_id: string;
  semester_id: string | null;
  date: string;
  description: string;
  debit: string;
  credit: string;
  balance: string;
  created_at: Date;
  updated_at: Date;
}

/** A student's statement in date order, each line with the running balance (credits minus debits). */
export async function statementOf(
  sequelize: Sequelize,
  studentId: string,
  transaction?: Transaction,
): Promise<financeV1.StatementLine[]> {
  const rows = await sequelize.query<LineRow>(
    `SELECT id, student_id, semester_id, to_char(date, 'YYYY-MM-DD') AS date, description, debit::text AS debit,
            credit::text AS credit,
            (sum(credit - debit) OVER (ORDER BY date, created_at, id))::text AS balance, created_at, updated_at
       FROM financial_statements WHERE student_id = $1 ORDER BY date, created_at, id`,
    { bind: [studentId], type: QueryTypes.SELECT, transaction },
  );
  return rows.map((row) => ({
    id: row.id,
    studentId: row.student_id,
    semesterId: row.semester_id ?? '',
    date: row.date,
    description: row.description,
    debit: row.debit,
    credit: row.credit,
    balance: row.balance,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  }));
}

export interface NewStatementLine {
  studentId: string;
  semesterId: string | null;
  date: string;
  description: string;
  debit: string;
  credit: string;
  paymentId: string | null;
}

export async function insertStatementLine(sequelize: Sequelize, line: NewStatementLine, transaction: Transaction): Promise<string> {
  const [row] = await sequelize.query<{ id: string }>(
    `INSERT INTO financial_statements (student_id, semester_id, date, description, debit, credit, payment_id)
     VALUES ($1, $2, $3, $4, $5::bigint, $6::bigint, $7) RETURNING id`,
    {
      bind: [line.studentId, line.semesterId, line.date, line.description, line.debit, line.credit, line.paymentId],
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  return row.id;
}
