import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { GrpcStatus, RpcError, type Actor } from '@libs/grpc';

/**
 * Who may do what in scheduling (docs/SCHEDULING.md, "Roles"). The gateway will hold the same table; the
 * service checks the signed actor again, so a caller reaching the port cannot skip it.
 */
export const SCHEDULING_ACCESS = {
  /** Locations, resources, services, schedules and free slots. */
  browse: ['reader', 'student', 'bursar', 'clinician', 'admin'],
  configure: ['admin'],
  /** Blocks: clinicians for the resources they staff. */
  block: ['clinician', 'admin'],
  /** Why time is not free (explain=true). */
  explain: ['clinician', 'admin'],
  book: ['student', 'clinician', 'admin'],
  readAppointments: ['student', 'clinician', 'admin'],
  /** Check-in, complete, no-show and its revert. */
  attend: ['clinician', 'admin'],
  enteredInError: ['admin'],
} as const;

export const isStaff = (actor: Actor): boolean => actor.role === 'clinician' || actor.role === 'admin';

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
