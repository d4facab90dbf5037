import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { Role } from '@libs/contracts';
import { GrpcStatus, RpcError, type Actor } from '@libs/grpc';

/** Every student's records, or only the actor's own (the student row whose user_id is the actor). */
type Reach = 'all' | 'own';

/**
 * Whose records each role reaches, once the permission table (@libs/contracts; docs/FINANCE.md, Roles) has let
 * it read or pay. A role not listed reaches nothing and is refused, whatever it was granted: a new role gets a
 * reach here on purpose, never by default.
 */
const REACH = { student: 'own', bursar: 'all', admin: 'all' } as const satisfies Partial<Record<Role, Reach>>;

export function reachOf(actor: Actor): Reach {
  if (!Object.hasOwn(REACH, actor.role)) throw new RpcError(GrpcStatus.PERMISSION_DENIED, `role ${actor.role} may not do this`);
  return REACH[actor.role as keyof typeof REACH];
}

/** The records an actor may read. Its own, without a student row, are none: every read finds nothing. */
export type Scope = { kind: 'all' } | { kind: 'own'; studentId: string | null };

export async function scopeOf(sequelize: Sequelize, actor: Actor, transaction?: Transaction): Promise<Scope> {
  if (reachOf(actor) === 'all') return { kind: 'all' };
  const [row] = await sequelize.query<{ id: string }>('SELECT id FROM students WHERE user_id = $1', {
    bind: [actor.userId],
    type: QueryTypes.SELECT,
    transaction,
  });
  return { kind: 'own', studentId: row?.id ?? null };
}

/** Whether a record belonging to `studentId` is visible in the scope. */
export const canSee = (scope: Scope, studentId: string | null): boolean =>
  scope.kind === 'all' || (studentId !== null && scope.studentId === studentId);
