import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { grantedRoles } from '@libs/contracts';
import type { Actor } from '@libs/grpc';

/**
 * Who may do what in finance: the rows of the permission table (@libs/contracts;
 * docs/FINANCE.md, Roles) that the gateway checks too. The service checks them
 * again from the signed actor, so an internal caller cannot skip them.
 */
export const FINANCE_ACCESS = {
  /** Transactions, payments, students and statements; a student sees only their own. */
  read: grantedRoles('finance:read'),
  /** Accounts, categories and registration numbers. */
  readRecords: grantedRoles('finance:records:read'),
  write: grantedRoles('finance:write'),
  delete: grantedRoles('finance:delete'),
  submitPayment: grantedRoles('payments:submit'),
};

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
