import { appointmentsApi, CALENDAR_STATUS } from '@libs/contracts';
import { GrpcStatus, ProblemError } from '@libs/grpc';

export const STATUSES = appointmentsApi.APPOINTMENT_STATUSES;
export type Status = appointmentsApi.AppointmentStatus;

/** FHIR R4 Appointment.status of each status. */
export const FHIR_STATUS: Record<Status, string> = {
  held: 'pending',
  booked: 'booked',
  checked_in: 'checked-in',
  fulfilled: 'fulfilled',
  noshow: 'noshow',
  cancelled: 'cancelled',
  entered_in_error: 'entered-in-error',
};

/** Statuses whose time stays taken (the allocation stays active); cancelled and entered-in-error free it. */
export const OCCUPYING: readonly Status[] = ['held', 'booked', 'checked_in', 'fulfilled', 'noshow'];

const NON_TERMINAL: readonly Status[] = ['held', 'booked', 'checked_in', 'noshow'];

/**
 * Every move an appointment can make: the statuses it may start from and the one it leads to. Each is a
 * compare-and-swap on the status (appointment-store.ts), so of two concurrent moves one wins and the other
 * finds a status it cannot move from.
 */
export const MOVES = {
  confirm: { from: ['held'], to: 'booked' },
  release: { from: ['held'], to: 'cancelled' },
  expire: { from: ['held'], to: 'cancelled' },
  reschedule: { from: ['booked'], to: 'booked' },
  cancel: { from: ['held', 'booked'], to: 'cancelled' },
  check_in: { from: ['booked'], to: 'checked_in' },
  complete: { from: ['booked', 'checked_in'], to: 'fulfilled' },
  no_show: { from: ['booked'], to: 'noshow' },
  no_show_revert: { from: ['noshow'], to: 'checked_in' },
  entered_in_error: { from: NON_TERMINAL, to: 'entered_in_error' },
} as const satisfies Record<string, { from: readonly Status[]; to: Status }>;

export type Move = keyof typeof MOVES;

/** The status a move leads to; a move the current status does not allow is refused, naming both. */
export function nextStatus(current: Status, move: Move): Status {
  const rule = MOVES[move];
  if (!(rule.from as readonly Status[]).includes(current)) {
    throw new ProblemError(
      GrpcStatus.FAILED_PRECONDITION,
      `cannot ${move.replace(/_/g, '-')} an appointment that is ${current}; allowed only from ${rule.from.join(', ')}`,
      { type: 'illegal_transition', currentStatus: current, allowedFrom: [...rule.from] },
    );
  }
  return rule.to;
}

/**
 * Whether going from one status to another changes the appointment's iCalendar STATUS (TENTATIVE, CONFIRMED,
 * CANCELLED): every such move adds 1 to SEQUENCE (RFC 5545 §3.8.7.4), as a reschedule does for its new time.
 */
export const changesCalendarStatus = (from: Status, to: Status): boolean => CALENDAR_STATUS[from] !== CALENDAR_STATUS[to];
