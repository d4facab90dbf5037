import type { z } from 'zod';
import { appointmentsApi, SCHEDULING_LIMITS, type Permission } from '@libs/contracts';
import { conflictOnKey, idempotentWrite } from '../platform/routing/headers';
import { operation } from '../platform/routing/operation';
import type { ResponseDoc } from '../platform/routing/responses';
import { REFUSALS } from '../scheduling/refusal-schemas';
import { APPOINTMENTS_PATH, byId, eitherRefusal, notFound, oneAppointment, tag } from './appointment-operation-parts';

/**
 * The moves of an appointment (docs/SCHEDULING.md, "States"): each is a POST on the appointment, honours
 * If-Match (its version; stale → 412) and Idempotency-Key, and answers the appointment as it now is.
 */

interface Move {
  name: string;
  operationId: string;
  summary: string;
  description?: string;
  access: Permission;
  refusals: Record<string, ResponseDoc>;
}

/** A move's declaration; `request` adds its body, when it takes one. */
const moveOf = <B extends { body?: z.ZodType }>(move: Move, request: B) =>
  operation({
    method: 'post',
    path: `${APPOINTMENTS_PATH}/{id}/${move.name}`,
    operationId: move.operationId,
    summary: move.summary,
    description: move.description,
    tag,
    access: { key: move.access },
    request: { path: byId, headers: idempotentWrite, ...request },
    ifMatch: true,
    responses: { '200': oneAppointment('The appointment after the move, with its new ETag.'), ...notFound, ...move.refusals },
  });

const illegal = { '409': eitherRefusal(REFUSALS.illegalTransition, conflictOnKey['409']) };
const withPolicy = { ...illegal, '422': REFUSALS.policy };

export const confirmAppointment = moveOf(
  {
    name: 'confirm',
    operationId: 'confirmAppointment',
    summary: 'Confirm a hold: it becomes booked',
    access: 'appointments:book',
    refusals: { ...illegal, '410': REFUSALS.holdExpired },
  },
  {},
);

export const releaseHold = moveOf(
  { name: 'release', operationId: 'releaseHold', summary: 'Let a hold go (cancelled, reason `released`)', access: 'appointments:book', refusals: illegal },
  {},
);

export const rescheduleAppointment = moveOf(
  {
    name: 'reschedule',
    operationId: 'rescheduleAppointment',
    summary: 'Move a booked appointment to another free slot of the same service',
    description:
      'The same appointment moves: same id, version + 1, iCalendar SEQUENCE + 1; the old time is freed and the new one taken in one commit. A refused move leaves it as it was. A student may until the policy’s reschedule cut-off.',
    access: 'appointments:book',
    refusals: { '409': eitherRefusal(REFUSALS.illegalTransition, REFUSALS.conflict), '422': REFUSALS.policy },
  },
  { body: appointmentsApi.rescheduleRequest },
);

export const cancelAppointment = moveOf(
  {
    name: 'cancel',
    operationId: 'cancelAppointment',
    summary: 'Cancel a hold or a booking, with a coded reason',
    description:
      'SEQUENCE + 1. A student may until the policy’s cancel cut-off; staff until the end, flagged `late` after the cut-off.',
    access: 'appointments:book',
    refusals: withPolicy,
  },
  { body: appointmentsApi.cancelRequest },
);

export const checkInAppointment = moveOf(
  { name: 'check-in', operationId: 'checkInAppointment', summary: 'The student has arrived (within the check-in window)', access: 'appointments:attend', refusals: withPolicy },
  {},
);

export const completeAppointment = moveOf(
  {
    name: 'complete',
    operationId: 'completeAppointment',
    summary: 'The appointment took place (fulfilled)',
    description: 'From checked_in, or from booked once it has started.',
    access: 'appointments:attend',
    refusals: withPolicy,
  },
  {},
);

export const markNoShow = moveOf(
  { name: 'no-show', operationId: 'markNoShow', summary: 'The student did not come (from the start plus the grace)', access: 'appointments:attend', refusals: withPolicy },
  {},
);

export const revertNoShow = moveOf(
  {
    name: 'no-show/revert',
    operationId: 'revertNoShow',
    summary: `The student came after all: a no-show becomes checked_in (within ${SCHEDULING_LIMITS.noShowRevertHours} hours)`,
    access: 'appointments:attend',
    refusals: withPolicy,
  },
  {},
);

export const markEnteredInError = moveOf(
  {
    name: 'entered-in-error',
    operationId: 'markEnteredInError',
    summary: 'The appointment should never have existed (admin, with a reason)',
    access: 'appointments:entered-in-error',
    refusals: illegal,
  },
  { body: appointmentsApi.enteredInErrorRequest },
);
