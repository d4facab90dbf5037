import { appointmentsApi, schedulingV1 } from '@libs/contracts';
import { GrpcStatus, requirePermission, RpcError, type Actor, type CallContext } from '@libs/grpc';
import { checkVersion, FieldChecks, given, parseInput, requireUuid } from '@libs/validation';
import { writeTransaction } from '@libs/outbox';
import { isStaff, requireStaffing, scopeOf } from '../access';
import type { SchedulingDeps } from '../scheduling-deps';
import { exclusionBroken } from '../allocation-exclusion';
import { resolveSlot, slotTaken, type ResolvedSlot } from '../slots/resolve-slot';
import { act, actorKind, lockVisible } from './appointment-actions';
import { toAppointment } from './appointment-row';
import { nextStatus } from './appointment-states';
import { insertAppointment, moveAppointment, reclaimExpiredHolds, recordChange } from './appointment-store';
import { checkReschedule } from './policy';
import { checkStudentCaps } from './student-caps';

/** A write the exclusion constraints refused, carried out of its transaction (answeringRefusals, below). */
class SlotRefused extends Error {
  constructor(readonly broken: 'resource' | 'student') {
    super('the slot was refused by an exclusion constraint');
  }
}

const asRefusal = (error: unknown): never => {
  const broken = exclusionBroken(error);
  throw broken ? new SlotRefused(broken) : error;
};

/** The student an appointment is for: a student books for themselves (their id in either case: a UUID), staff name one. */
export function studentFor(actor: Actor, requested: string): string {
  if (!isStaff(actor)) {
    if (requested !== '' && requested.toLowerCase() !== actor.userId.toLowerCase()) {
      throw new RpcError(GrpcStatus.PERMISSION_DENIED, 'a student may book only for themselves');
    }
    return actor.userId;
  }
  new FieldChecks().uuid(requested, 'studentId', { required: true }).throwIfAny();
  return requested.toLowerCase();
}

export function bookingHandlers(deps: SchedulingDeps) {
  const { sequelize, cursors } = deps;

  /**
   * A slot that the database refused (exclusion constraint) becomes a 409 with the nearest free slots, searched
   * once the write's transaction has rolled back: searched inside it, each refusal held its connection while
   * asking the pool for another, and 32 refused holds at once emptied the pool (every caller then got 503).
   */
  async function answeringRefusals<T>(slot: ResolvedSlot, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof SlotRefused)) throw error;
      throw await slotTaken(sequelize, cursors, { service: slot.service, resource: slot.resource, start: slot.placement.start }, error.broken === 'student' ? 'student' : 'taken');
    }
  }

  /** Hold or book in one step: reclaim expired holds in the way, insert; the exclusion constraints decide. */
  async function take(
    request: { slotToken: string; studentId: string; idempotencyKey: string },
    context: CallContext,
    status: 'held' | 'booked',
  ): Promise<schedulingV1.HoldSlotResponse> {
    const actor = requirePermission(context, 'appointments:book');
    parseInput(appointmentsApi.slotRequest, { slotToken: request.slotToken, studentId: given(request.studentId) });
    const studentId = studentFor(actor, request.studentId);
    const slot = await resolveSlot(sequelize, cursors, request.slotToken);
    if (isStaff(actor)) requireStaffing(await scopeOf(sequelize, actor), slot.resource.id);
    const { idempotencyKey, ...fields } = request;
    const method = status === 'held' ? 'HoldSlot' : 'BookAppointment';
    const codec = status === 'held' ? schedulingV1.HoldSlotResponse : schedulingV1.BookAppointmentResponse;
    const { placement } = slot;
    return answeringRefusals(slot, () => writeTransaction(deps, { method, key: idempotencyKey, request: fields, codec, actor, context }, async (transaction) => {
      if (!isStaff(actor)) await checkStudentCaps(sequelize, transaction, { studentId, serviceId: slot.service.id, policy: slot.service.policy, status });
      await reclaimExpiredHolds(sequelize, transaction, context, { ...placement, studentId });
      const row = await insertAppointment(sequelize, transaction, {
        placement,
        serviceId: slot.service.id,
        studentId,
        status,
        policy: slot.service.policy,
        bookedBy: actor.userId,
      }).catch(asRefusal);
      const after = await recordChange(sequelize, transaction, context, actor, { action: status, before: null, id: row.id });
      return { appointment: toAppointment(after) };
    }));
  }

  return {
    holdSlot: (request: schedulingV1.HoldSlotRequest, context: CallContext) => take(request, context, 'held'),
    bookAppointment: (request: schedulingV1.BookAppointmentRequest, context: CallContext) => take(request, context, 'booked'),

    confirmAppointment: (request: schedulingV1.ConfirmAppointmentRequest, context: CallContext) =>
      act(deps, context, request, schedulingV1.ConfirmAppointmentResponse, {
        method: 'ConfirmAppointment',
        permission: 'appointments:book',
        move: 'confirm',
        action: 'confirmed',
        apply: () => ({}),
      }),

    /**
     * The same appointment moves: same id, version + 1, SEQUENCE + 1. Its allocation is updated in place, so
     * the old time is freed and the new one taken in one commit; a refusal leaves it untouched.
     */
    async rescheduleAppointment(
      request: schedulingV1.RescheduleAppointmentRequest,
      context: CallContext,
    ): Promise<schedulingV1.RescheduleAppointmentResponse> {
      const actor = requirePermission(context, 'appointments:book');
      const id = requireUuid(request.id);
      parseInput(appointmentsApi.rescheduleRequest, { slotToken: request.slotToken });
      const slot = await resolveSlot(sequelize, cursors, request.slotToken);
      const { idempotencyKey, ...fields } = request;
      const call = { method: 'RescheduleAppointment', key: idempotencyKey, request: fields, codec: schedulingV1.RescheduleAppointmentResponse, actor, context };
      return answeringRefusals(slot, () => writeTransaction(deps, call, async (transaction) => {
        const row = await lockVisible(deps, actor, id, transaction);
        checkVersion('appointment', row.version, request.expectedVersion);
        nextStatus(row.status, 'reschedule');
        if (slot.service.id !== row.service_id) {
          throw RpcError.invalidArgument('slotToken', 'must be a slot of the appointment’s service');
        }
        if (isStaff(actor)) requireStaffing(await scopeOf(sequelize, actor, transaction), slot.resource.id);
        checkReschedule(row.policy, { now: row.db_now, start: row.start_ms, end: row.end_ms }, actorKind(actor));
        const { placement } = slot;
        await reclaimExpiredHolds(sequelize, transaction, context, { ...placement, studentId: row.student_id });
        await moveAppointment(sequelize, transaction, id, placement).catch(asRefusal);
        const after = await recordChange(sequelize, transaction, context, actor, { action: 'rescheduled', before: row, id });
        return { appointment: toAppointment(after) };
      }));
    },
  };
}
