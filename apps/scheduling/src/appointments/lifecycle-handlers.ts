import { appointmentsApi, schedulingV1 } from '@libs/contracts';
import type { CallContext } from '@libs/grpc';
import { given } from '@libs/validation';
import type { SchedulingDeps } from '../scheduling-deps';
import { act, actorKind } from './appointment-actions';
import { cancellation, checkCheckIn, checkComplete, checkNoShow, checkNoShowRevert } from './policy';

const timing = (row: { start_ms: number; end_ms: number }, now: number) => ({ now, start: row.start_ms, end: row.end_ms });

/** Release, cancel, check-in, complete, no-show (and its revert), entered-in-error: one move each. */
export function lifecycleHandlers(deps: SchedulingDeps) {
  return {
    releaseHold: (request: schedulingV1.ReleaseHoldRequest, context: CallContext) =>
      act(deps, context, request, schedulingV1.ReleaseHoldResponse, {
        method: 'ReleaseHold',
        permission: 'appointments:book',
        move: 'release',
        action: 'released',
        apply: (_row, actor) => ({ cancel_reason_code: 'released', cancelled_by: actor.userId, cancelled_by_role: actor.role, cancelled_late: false, stamp: 'cancelled_at' }),
      }),

    cancelAppointment: (request: schedulingV1.CancelAppointmentRequest, context: CallContext) =>
      act(
        deps,
        context,
        request,
        schedulingV1.CancelAppointmentResponse,
        {
          method: 'CancelAppointment',
          permission: 'appointments:book',
          move: 'cancel',
          action: 'cancelled',
          apply: (row, actor, now) => {
            const { late } = row.status === 'held' ? { late: false } : cancellation(row.policy, timing(row, now), actorKind(actor));
            return {
              cancel_reason_code: request.reasonCode,
              cancel_reason_text: request.reasonText.trim(),
              cancelled_by: actor.userId,
              cancelled_by_role: actor.role,
              cancelled_late: late,
              stamp: 'cancelled_at',
            };
          },
        },
        (checks) =>
          checks.parse(appointmentsApi.cancelRequest, { reasonCode: request.reasonCode, reasonText: given(request.reasonText) }),
      ),

    checkInAppointment: (request: schedulingV1.CheckInAppointmentRequest, context: CallContext) =>
      act(deps, context, request, schedulingV1.CheckInAppointmentResponse, {
        method: 'CheckInAppointment',
        permission: 'appointments:attend',
        move: 'check_in',
        action: 'checked_in',
        apply: (row, _actor, now) => {
          checkCheckIn(row.policy, timing(row, now));
          return { stamp: 'checked_in_at' };
        },
      }),

    completeAppointment: (request: schedulingV1.CompleteAppointmentRequest, context: CallContext) =>
      act(deps, context, request, schedulingV1.CompleteAppointmentResponse, {
        method: 'CompleteAppointment',
        permission: 'appointments:attend',
        move: 'complete',
        action: 'completed',
        apply: (row, _actor, now) => {
          if (row.status === 'booked') checkComplete(timing(row, now));
          return { stamp: 'completed_at' };
        },
      }),

    markNoShow: (request: schedulingV1.MarkNoShowRequest, context: CallContext) =>
      act(deps, context, request, schedulingV1.MarkNoShowResponse, {
        method: 'MarkNoShow',
        permission: 'appointments:attend',
        move: 'no_show',
        action: 'no_show',
        apply: (row, _actor, now) => {
          checkNoShow(row.policy, timing(row, now));
          return { stamp: 'no_show_at' };
        },
      }),

    revertNoShow: (request: schedulingV1.RevertNoShowRequest, context: CallContext) =>
      act(deps, context, request, schedulingV1.RevertNoShowResponse, {
        method: 'RevertNoShow',
        permission: 'appointments:attend',
        move: 'no_show_revert',
        action: 'no_show_reverted',
        apply: (row, _actor, now) => {
          checkNoShowRevert({ now, markedAt: row.no_show_at?.getTime() ?? now });
          return { stamp: 'checked_in_at' };
        },
      }),

    markEnteredInError: (request: schedulingV1.MarkEnteredInErrorRequest, context: CallContext) =>
      act(
        deps,
        context,
        request,
        schedulingV1.MarkEnteredInErrorResponse,
        {
          method: 'MarkEnteredInError',
          permission: 'appointments:entered-in-error',
          move: 'entered_in_error',
          action: 'entered_in_error',
          apply: () => ({ error_reason: request.reason.trim() }),
        },
        (checks) => checks.parse(appointmentsApi.enteredInErrorRequest, { reason: request.reason }),
      ),
  };
}
