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
  reversal_of: string | null;
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
            (sum(credit - debit) OVER (ORDER BY date, created_at, id))::text AS balance, reversal_of, created_at, updated_at
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
    reversalOf: row.reversal_of ?? '',
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
  /** The line this one offsets, if any. */
  reversalOf?: string;
}

export async function insertStatementLine(sequelize: Sequelize, line: NewStatementLine, transaction: Transaction): Promise<string> {
  const [row] = await sequelize.query<{ id: string }>(
    `INSERT INTO financial_statements (student_id, semester_id, date, description, debit, credit, payment_id, reversal_of)
     VALUES ($1, $2, $3, $4, $5::bigint, $6::bigint, $7, $8) RETURNING id`,
    {
      bind: [line.studentId, line.semesterId, line.date, line.description, line.debit, line.credit, line.paymentId, line.reversalOf ?? null],
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  return row.id;
}

/** The credit line an accepted payment wrote, locked: its reversal offsets it once. */
export async function paymentCreditLine(
  sequelize: Sequelize,
  paymentId: string,
  transaction: Transaction,
): Promise<{ id: string; semesterId: string | null } | undefined> {
  const [row] = await sequelize.query<{ id: string; semester_id: string | null }>(
    'SELECT id, semester_id FROM financial_statements WHERE payment_id = $1 FOR UPDATE',
    { bind: [paymentId], type: QueryTypes.SELECT, transaction },
  );
  return row && { id: row.id, semesterId: row.semester_id };
}

/** The registration number of a student, which statements and receipts name (every student row has one). */
export async function registrationNumberOf(sequelize: Sequelize, studentId: string): Promise<string> {
  const [row] = await sequelize.query<{ number: string }>(
    'SELECT r.number FROM students s JOIN registration_numbers r ON r.id = s.registration_number_id WHERE s.id = $1',
    { bind: [studentId], type: QueryTypes.SELECT },
  );
  return row?.number ?? '';
}
