import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { isGranted, type Role } from '@libs/contracts';
import { GrpcStatus, RpcError, type Actor } from '@libs/grpc';

/** Staff see who staffs a resource and who acted, and book for a student. */
export const isStaff = (actor: Actor): boolean => isGranted(actor.role, 'scheduling:staff-view');

/** Staff may also ask why time is not free (slot search with explain=true). */
export const mayExplain = (actor: Actor): boolean => isGranted(actor.role, 'scheduling:explain');

/** All appointments and blocks; a student's own appointments; or those of the resources the actor staffs. */
type Reach = 'all' | 'own' | 'staffed';

/**
 * What each role reaches, once the permission table (@libs/contracts; docs/SCHEDULING.md, Roles) has let it
 * book, read appointments or block. A role not listed reaches nothing and is refused, whatever it was granted: a
 * new role gets a reach here on purpose, never by default.
 */
const REACH = { admin: 'all', student: 'own', clinician: 'staffed' } as const satisfies Partial<Record<Role, Reach>>;

function reachOf(actor: Actor): Reach {
  if (!Object.hasOwn(REACH, actor.role)) throw new RpcError(GrpcStatus.PERMISSION_DENIED, `role ${actor.role} may not do this`);
  return REACH[actor.role as keyof typeof REACH];
}

export type Scope = { kind: 'all' } | { kind: 'own'; studentId: string } | { kind: 'staffed'; resourceIds: string[] };

export async function scopeOf(sequelize: Sequelize, actor: Actor, transaction?: Transaction): Promise<Scope> {
  const reach = reachOf(actor);
  if (reach === 'all') return { kind: 'all' };
  if (reach === 'own') return { kind: 'own', studentId: actor.userId };
  const rows = await sequelize.query<{ resource_id: string }>('SELECT resource_id FROM staffing WHERE user_id = $1', {
    bind: [actor.userId],
    type: QueryTypes.SELECT,
    transaction,
  });
  return { kind: 'staffed', resourceIds: rows.map((row) => row.resource_id) };
}

export function canSee(scope: Scope, appointment: { student_id: string; resource_id: string }): boolean {
  if (scope.kind === 'all') return true;
  if (scope.kind === 'own') return appointment.student_id === scope.studentId;
  return scope.resourceIds.includes(appointment.resource_id);
}

/** A clinician acts only on the resources they staff; admins on all. */
export function requireStaffing(scope: Scope, resourceId: string): void {
  if (scope.kind === 'all' || (scope.kind === 'staffed' && scope.resourceIds.includes(resourceId))) return;
  throw new RpcError(GrpcStatus.PERMISSION_DENIED, 'you do not staff this resource');
}
