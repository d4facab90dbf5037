import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { Actor } from '@libs/grpc';

export type Role = 'reader' | 'student' | 'bursar' | 'admin';

/**
 * Who may do what in finance (docs/FINANCE.md, Roles). The gateway has the same table in
 * its permissions; services check again so an internal caller cannot skip it.
 */
export const FINANCE_ACCESS = {
  /** Transactions, payments, students and statements; a student sees only their own. */
  read: ['student', 'bursar', 'admin'],
  /** Accounts, categories and registration numbers. */
  readRecords: ['bursar', 'admin'],
  write: ['bursar', 'admin'],
  delete: ['admin'],
  submitPayment: ['student', 'bursar', 'admin'],
} as const satisfies Record<string, readonly Role[]>;

/**
 * The records an actor may read: `all`, or only those of one student (the
 * student row whose user_id is the actor). A student without a student row
 * owns nothing, so every read finds nothing.
 */
export type Scope = { kind: 'all' } | { kind: 'student'; studentId: string | null };

export async function scopeOf(sequelize: Sequelize, actor: Actor, transaction?: Transaction): Promise<Scope> {
  if (actor.role !== 'student') return { kind: 'all' };
  const [row] = await sequelize.query<{ id: string }>('SELECT id FROM students WHERE user_id = $1', {
    bind: [actor.userId],
    type: QueryTypes.SELECT,
    transaction,
  });
  return { kind: 'student', studentId: row?.id ?? null };
}

/** Whether a record belonging to `studentId` is visible in the scope. */
export const canSee = (scope: Scope, studentId: string | null): boolean =>
  scope.kind === 'all' || (studentId !== null && scope.studentId === studentId);
