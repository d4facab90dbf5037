import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { financeV1 } from '@libs/contracts';
import { filesOfPayments } from '../files/file-store';
import type { PaymentStatus } from './payment-states';

interface PaymentRow {
  id: string;
  student_id: string;
  user_id: string;
  amount: string;
  description: string;
  date: string;
  status: PaymentStatus;
  outcome: string | null;
  note: string;
  processed_by: string | null;
  processed_at: Date | null;
  resolved_by: string | null;
  resolved_at: Date | null;
  reversed_by: string | null;
  reversed_at: Date | null;
  reversal_reason: string;
  created_at: Date;
  updated_at: Date;
  /** created_at to the microsecond, as the keyset position (a JS Date keeps only milliseconds). */
  position: string;
}

const SELECT = `SELECT id, student_id, user_id, amount::text AS amount, description, to_char(date, 'YYYY-MM-DD') AS date,
  status, outcome, note, processed_by, processed_at, resolved_by, resolved_at, reversed_by, reversed_at, reversal_reason,
  created_at, updated_at,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position
  FROM payments`;

const iso = (date: Date | null) => date?.toISOString() ?? '';

function toPayment(row: PaymentRow): financeV1.Payment & { status: PaymentStatus } {
  return {
    id: row.id,
    studentId: row.student_id,
    userId: row.user_id,
    amount: row.amount,
    description: row.description,
    date: row.date,
    status: row.status,
    outcome: row.outcome ?? '',
    note: row.note,
    processedBy: row.processed_by ?? '',
    processedAt: iso(row.processed_at),
    resolvedBy: row.resolved_by ?? '',
    resolvedAt: iso(row.resolved_at),
    reversedBy: row.reversed_by ?? '',
    reversedAt: iso(row.reversed_at),
    reversalReason: row.reversal_reason,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    files: [],
  };
}

export interface NewPayment {
  studentId: string;
  userId: string;
  amount: string;
  description: string;
  date: string;
}

export async function insertPayment(sequelize: Sequelize, payment: NewPayment, transaction: Transaction): Promise<string> {
  const [row] = await sequelize.query<{ id: string }>(
    `INSERT INTO payments (student_id, user_id, amount, description, date) VALUES ($1, $2, $3::bigint, $4, $5) RETURNING id`,
    {
      bind: [payment.studentId, payment.userId, payment.amount, payment.description, payment.date],
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  return row.id;
}

export async function findPayment(sequelize: Sequelize, id: string, transaction?: Transaction, lock = false) {
  const [row] = await sequelize.query<PaymentRow>(`${SELECT} WHERE id = $1 ${lock ? 'FOR UPDATE' : ''}`, {
    bind: [id],
    type: QueryTypes.SELECT,
    transaction,
  });
  // The row is typed as found; a missing one (undefined) is answered as it is.
  return row && { ...toPayment(row), files: (await filesOfPayments(sequelize, [id], transaction)).get(id) ?? [] };
}

/** Records a move; the caller holds the row lock and has checked the move is legal. An empty note keeps the earlier one. */
export async function setPaymentStatus(
  sequelize: Sequelize,
  id: string,
  change: { status: PaymentStatus; by: string; note: string; outcome?: string },
  transaction: Transaction,
): Promise<void> {
  const stamp = change.status === 'processed' ? 'processed' : 'resolved';
  await sequelize.query(
    `UPDATE payments SET status = $2, ${stamp}_by = $3, ${stamp}_at = now(),
            note = CASE WHEN $4 = '' THEN note ELSE $4 END,
            outcome = COALESCE($5, outcome), updated_at = now()
      WHERE id = $1`,
    { bind: [id, change.status, change.by, change.note, change.outcome ?? null], transaction },
  );
}

/** Records a reversal; the caller holds the row lock and has checked the move is legal. */
export async function setPaymentReversed(
  sequelize: Sequelize,
  id: string,
  change: { by: string; reason: string },
  transaction: Transaction,
): Promise<void> {
  await sequelize.query(
    `UPDATE payments SET status = 'reversed', reversed_by = $2, reversed_at = now(), reversal_reason = $3, updated_at = now()
      WHERE id = $1`,
    { bind: [id, change.by, change.reason], transaction },
  );
}

export interface PaymentFilter {
  status: string | null;
  studentId: string | null;
  /** Keyset position: the (created_at to the microsecond, id) of the last row already served. */
  after: [string, string] | undefined;
  limit: number;
}

/** Payments in (created_at, id) order, at most `limit`, each with its keyset position. */
export async function listPayments(sequelize: Sequelize, filter: PaymentFilter) {
  const rows = await sequelize.query<PaymentRow>(
    `${SELECT}
      WHERE ($1::text IS NULL OR status = $1) AND ($2::uuid IS NULL OR student_id = $2::uuid)
        AND ($3::timestamptz IS NULL OR (created_at, id) > ($3::timestamptz, $4::uuid))
      ORDER BY created_at, id LIMIT $5`,
    {
      bind: [filter.status, filter.studentId, filter.after?.[0] ?? null, filter.after?.[1] ?? null, filter.limit],
      type: QueryTypes.SELECT,
    },
  );
  const files = await filesOfPayments(sequelize, rows.map((row) => row.id));
  return rows.map((row) => ({ payment: { ...toPayment(row), files: files.get(row.id) ?? [] }, position: [row.position, row.id] as [string, string] }));
}
