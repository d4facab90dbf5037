import type { Transaction } from 'sequelize';
import type { Permission, schedulingV1 } from '@libs/contracts';
import { GrpcStatus, ProblemError, requirePermission, type Actor, type CallContext } from '@libs/grpc';
import { checkVersion, FieldChecks, notFound, requireUuid } from '@libs/validation';
import { writeTransaction } from '@libs/outbox';
import { canSee, isStaff, scopeOf } from '../access';
import type { SchedulingDeps } from '../scheduling-deps';
import { toAppointment, type AppointmentRow } from './appointment-row';
import { nextStatus, type Move } from './appointment-states';
import { findAppointment, recordChange, setStatus, type StatusColumns } from './appointment-store';

interface Codec<T> {
  toJSON(message: T): unknown;
  fromJSON(object: unknown): T;
}

/** The fields every call on one appointment carries. */
export interface ActionRequest {
  id: string;
  expectedVersion: number;
  idempotencyKey: string;
}

export interface ActionSpec {
  /** The RPC's name, which keys its idempotency records. */
  method: string;
  /** Who may make the move. */
  permission: Permission;
  move: Move;
  /** The history's and the event's action name. */
  action: string;
  /** Policy checks and the columns the move sets besides the status; `now` is the database's clock. */
  apply(row: AppointmentRow, actor: Actor, now: number): StatusColumns;
}

export const holdExpired = (row: AppointmentRow) =>
  new ProblemError(GrpcStatus.FAILED_PRECONDITION, 'the hold has expired; hold a slot again', {
    type: 'hold_expired',
    expiredAt: row.hold_expires_at?.toISOString() ?? row.cancelled_at?.toISOString() ?? null,
  });

/** The appointment, locked, if the actor may see it; another student's is NOT_FOUND, never PERMISSION_DENIED. */
export async function lockVisible(deps: SchedulingDeps, actor: Actor, id: string, transaction: Transaction): Promise<AppointmentRow> {
  const row = await findAppointment(deps.sequelize, id, transaction, true);
  if (!row || !canSee(await scopeOf(deps.sequelize, actor, transaction), row)) throw notFound('appointment');
  return row;
}

/**
 * One move of one appointment, in one transaction: lock the row, check it may be seen, its version (If-Match),
 * the move (compare-and-swap on the status) and the policy; write the status, its history and its event.
 */
export async function act<Req extends ActionRequest, Res extends { appointment?: schedulingV1.Appointment }>(
  deps: SchedulingDeps,
  context: CallContext,
  request: Req,
  codec: Codec<Res>,
  spec: ActionSpec,
  checkFields: (checks: FieldChecks) => void = () => undefined,
): Promise<Res> {
  const actor = requirePermission(context, spec.permission);
  const id = requireUuid(request.id);
  const checks = new FieldChecks();
  checkFields(checks);
  checks.throwIfAny();
  const { idempotencyKey, ...fields } = request;
  const call = { method: spec.method, key: idempotencyKey, request: fields, codec, actor, context };
  return writeTransaction(deps, call, async (transaction) => {
    const row = await lockVisible(deps, actor, id, transaction);
    checkVersion('appointment', row.version, request.expectedVersion);
    if (spec.move === 'confirm' && ((row.status === 'held' && row.hold_expired) || row.cancel_reason_code === 'expired')) {
      throw holdExpired(row);
    }
    const to = nextStatus(row.status, spec.move);
    const columns = spec.apply(row, actor, row.db_now);
    await setStatus(deps.sequelize, transaction, row, to, columns);
    const after = await recordChange(deps.sequelize, transaction, context, actor, { action: spec.action, before: row, id });
    // Every response of a move is the appointment as it now is.
    return { appointment: toAppointment(after) } as Res;
  });
}

export const actorKind = (actor: Actor) => (isStaff(actor) ? 'staff' : 'student');
