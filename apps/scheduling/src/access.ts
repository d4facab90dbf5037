import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { grantedRoles } from '@libs/contracts';
import { GrpcStatus, RpcError, type Actor } from '@libs/grpc';

/** Who may do what in scheduling: the rows of the permission table (libs/contracts), checked again here from the signed actor. */
export const SCHEDULING_ACCESS = {
  browse: grantedRoles('scheduling:browse'),
  configure: grantedRoles('scheduling:configure'),
  block: grantedRoles('scheduling:block'),
  explain: grantedRoles('scheduling:explain'),
  staffView: grantedRoles('scheduling:staff-view'),
  book: grantedRoles('appointments:book'),
  readAppointments: grantedRoles('appointments:read'),
  attend: grantedRoles('appointments:attend'),
  enteredInError: grantedRoles('appointments:entered-in-error'),
};

const holds = (roles: readonly string[], actor: Actor): boolean => roles.includes(actor.role);

/** Staff see who staffs a resource and who acted, and book for a student. */
export const isStaff = (actor: Actor): boolean => holds(SCHEDULING_ACCESS.staffView, actor);

/** Staff may also ask why time is not free (slot search with explain=true). */
export const mayExplain = (actor: Actor): boolean => holds(SCHEDULING_ACCESS.explain, actor);

/** What an actor may see of appointments: all, a student's own, or those of the resources a clinician staffs. */
export type Scope = { kind: 'all' } | { kind: 'student'; studentId: string } | { kind: 'staff'; resourceIds: string[] };

export async function scopeOf(sequelize: Sequelize, actor: Actor, transaction?: Transaction): Promise<Scope> {
  if (actor.role === 'admin') return { kind: 'all' };
  if (actor.role === 'student') return { kind: 'student', studentId: actor.userId };
  const rows = await sequelize.query<{ resource_id: string }>('SELECT resource_id FROM staffing WHERE user_id = $1', {
    bind: [actor.userId],
    type: QueryTypes.SELECT,
    transaction,
  });
  return { kind: 'staff', resourceIds: rows.map((row) => row.resource_id) };
}

export function canSee(scope: Scope, appointment: { student_id: string; resource_id: string }): boolean {
  if (scope.kind === 'all') return true;
  if (scope.kind === 'student') return appointment.student_id === scope.studentId;
  return scope.resourceIds.includes(appointment.resource_id);
}

/** A clinician acts only on the resources they staff; admins on all. */
export function requireStaffing(scope: Scope, resourceId: string): void {
  if (scope.kind === 'all' || (scope.kind === 'staff' && scope.resourceIds.includes(resourceId))) return;
  throw new RpcError(GrpcStatus.PERMISSION_DENIED, 'you do not staff this resource');
}
