import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { isGranted, type EntityMessage, type Role } from '@libs/contracts';
import { GrpcStatus, reachIn, RpcError, type Actor } from '@libs/grpc';
import { recordsOf, type EventDraft } from '@libs/outbox';

/** Staff see who staffs a resource and who acted, and book for a student. */
export const isStaff = (actor: Actor): boolean => isGranted(actor.role, 'scheduling:staff-view');

/** Staff may also ask why time is not free (slot search with explain=true). */
export const mayExplain = (actor: Actor): boolean => isGranted(actor.role, 'scheduling:explain');

/** All appointments and blocks; a student's own appointments; or those of the resources the actor staffs. */
type Reach = 'all' | 'own' | 'staffed';

/**
 * What each role reaches, once the permission table (@libs/contracts; docs/SCHEDULING.md, Roles) has let it
 * book, read appointments or block. A role not listed reaches nothing and is refused (reachIn), whatever it was
 * granted.
 */
const REACH = { admin: 'all', student: 'own', clinician: 'staffed' } as const satisfies Partial<Record<Role, Reach>>;

export type Scope = { kind: 'all' } | { kind: 'own'; studentId: string } | { kind: 'staffed'; resourceIds: string[] };

/**
 * A 'staffed' reach is the staffing of resources (the table staffing), read in both directions: from a user to
 * the resources it staffs (scopeOf, for the read checks), and from resources to their staff (readersOf, for an
 * event's subjects). An 'own' reach needs no table: an appointment's student is a user id.
 */
export async function scopeOf(sequelize: Sequelize, actor: Actor, transaction?: Transaction): Promise<Scope> {
  const reach = reachIn(REACH, actor);
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

/** canSee as SQL over appointments `a`: the condition a query adds, or undefined for all; `bind` binds a value, naming it. */
export function scopeCondition(scope: Scope, bind: (value: unknown) => string): string | undefined {
  if (scope.kind === 'own') return `a.student_id = ${bind(scope.studentId)}`;
  if (scope.kind === 'staffed') return `a.resource_id = ANY(${bind(scope.resourceIds)}::uuid[])`;
  return undefined;
}

/** A clinician acts only on the resources they staff; admins on all. */
export function requireStaffing(scope: Scope, resourceId: string): void {
  if (scope.kind === 'all' || (scope.kind === 'staffed' && scope.resourceIds.includes(resourceId))) return;
  throw new RpcError(GrpcStatus.PERMISSION_DENIED, 'you do not staff this resource');
}

type SchedulingEntity = 'appointment' | 'block' | 'schedule' | 'resource' | 'service' | 'location';

/**
 * What a narrowed reach checks a record against: an appointment's student and resource (canSee), or a resource
 * alone (requireStaffing). `staff`: the resource's staff as the record shows them, when it is the resource
 * itself (its `before` names staff it had); otherwise they are read from staffing.
 */
interface Reached {
  studentId?: string;
  resourceId: string;
  staff?: string[];
}

/**
 * What each kind of record is checked against. Blocks, schedules and resources are the resource's: its staff act
 * on them (requireStaffing). Null: no narrowed reach concerns that kind (services and locations belong to no one
 * resource). Every role that browses (`scheduling:browse`) also reads all but appointments.
 */
const REACHED: { [E in SchedulingEntity]: ((record: EntityMessage<E>) => Reached) | null } = {
  appointment: (record) => ({ studentId: record.studentId, resourceId: record.resourceId }),
  block: (record) => ({ resourceId: record.resourceId }),
  schedule: (record) => ({ resourceId: record.scheduleId }),
  resource: (record) => ({ resourceId: record.id, staff: record.staffUserIds }),
  service: null,
  location: null,
};

/**
 * An event's subjects: the users whose narrowed reach covers a record of `before` or `after` — the appointment's
 * student ('own'), the staff of its resource ('staffed') — the converse of scopeOf and canSee. An appointment
 * moved to another resource, or a staff list changed, reaches those who lose it too. Whether a subject's role
 * has that reach now is for the consumer to check.
 */
export async function readersOf<E extends SchedulingEntity>(sequelize: Sequelize, transaction: Transaction, draft: EventDraft<E>): Promise<string[]> {
  const reached = REACHED[draft.entityType] as ((record: EntityMessage<E>) => Reached) | null;
  if (reached === null) return [];
  const targets = recordsOf(draft).map(reached);
  const students = targets.flatMap((target) => (target.studentId ? [target.studentId] : []));
  const shownStaff = targets.flatMap((target) => target.staff ?? []);
  const unshown = targets.filter((target) => target.staff === undefined).map((target) => target.resourceId);
  if (unshown.length === 0) return [...students, ...shownStaff];
  const rows = await sequelize.query<{ user_id: string }>('SELECT user_id FROM staffing WHERE resource_id = ANY($1::uuid[])', {
    bind: [unshown],
    type: QueryTypes.SELECT,
    transaction,
  });
  return [...students, ...shownStaff, ...rows.map((row) => row.user_id)];
}
