import { GrpcStatus, problemOf } from '@libs/grpc';
import { changesCalendarStatus, nextStatus } from './appointment-states';
import { studentFor } from './booking-handlers';
import { cancellation, checkCheckIn, checkNoShow, checkNoShowRevert, checkReschedule, type Policy } from './policy';

const POLICY: Policy = {
  minNoticeMinutes: 60,
  horizonDays: 60,
  holdTtlSeconds: 300,
  cancelCutoffMinutes: 24 * 60,
  rescheduleCutoffMinutes: 12 * 60,
  checkInWindowMinutes: 30,
  noShowGraceMinutes: 15,
  maxActivePerStudent: 4,
  maxHoldsPerStudent: 2,
  reminders: ['PT24H'],
};
const START = Date.parse('2027-01-05T10:00:00Z');
const at = (minutesFromStart: number) => ({ now: START + minutesFromStart * 60_000, start: START, end: START + 30 * 60_000 });

/** The problem a refusal carries, as the caller would read it. */
function refusal(act: () => unknown) {
  try {
    act();
  } catch (error) {
    const service = (error as { toServiceError(): Parameters<typeof problemOf>[0] }).toServiceError();
    return { code: service.code, problem: problemOf(service) };
  }
  throw new Error('expected a refusal');
}

describe('appointment moves', () => {
  it('lead where the states allow', () => {
    expect(nextStatus('held', 'confirm')).toBe('booked');
    expect(nextStatus('booked', 'reschedule')).toBe('booked');
    expect(nextStatus('noshow', 'no_show_revert')).toBe('checked_in');
    expect(nextStatus('checked_in', 'entered_in_error')).toBe('entered_in_error');
  });

  it('refuse any other move, naming the current state and the allowed ones', () => {
    expect(refusal(() => nextStatus('cancelled', 'confirm'))).toEqual({
      code: GrpcStatus.FAILED_PRECONDITION,
      problem: { type: 'illegal_transition', currentStatus: 'cancelled', allowedFrom: ['held'] },
    });
    expect(refusal(() => nextStatus('fulfilled', 'entered_in_error')).problem).toMatchObject({ allowedFrom: ['held', 'booked', 'checked_in', 'noshow'] });
  });
});

describe('policy rules', () => {
  it('a student cancels only before the cut-off; staff after it, flagged late', () => {
    expect(cancellation(POLICY, at(-25 * 60), 'student')).toEqual({ late: false });
    expect(refusal(() => cancellation(POLICY, at(-23 * 60), 'student'))).toEqual({
      code: GrpcStatus.OUT_OF_RANGE,
      problem: { type: 'policy', rule: 'cancel_cutoff', limit: '2027-01-04T10:00:00.000Z' },
    });
    expect(cancellation(POLICY, at(-23 * 60), 'staff')).toEqual({ late: true });
    expect(cancellation(POLICY, at(10), 'staff')).toEqual({ late: true });
    expect(refusal(() => cancellation(POLICY, at(30), 'staff')).problem).toMatchObject({ rule: 'appointment_ended' });
  });

  it('a student reschedules only before its own cut-off', () => {
    expect(() => checkReschedule(POLICY, at(-13 * 60), 'student')).not.toThrow();
    expect(refusal(() => checkReschedule(POLICY, at(-11 * 60), 'student')).problem).toMatchObject({ rule: 'reschedule_cutoff' });
    expect(() => checkReschedule(POLICY, at(-11 * 60), 'staff')).not.toThrow();
  });

  it('check-in is open from the window before the start to the end', () => {
    expect(refusal(() => checkCheckIn(POLICY, at(-31))).problem).toMatchObject({ rule: 'check_in_window' });
    expect(() => checkCheckIn(POLICY, at(-30))).not.toThrow();
    expect(() => checkCheckIn(POLICY, at(29))).not.toThrow();
    expect(refusal(() => checkCheckIn(POLICY, at(30))).problem).toMatchObject({ rule: 'check_in_window' });
  });

  it('a no-show only after the start plus the grace, reverted within a day', () => {
    expect(refusal(() => checkNoShow(POLICY, at(14))).problem).toMatchObject({ rule: 'no_show_grace', limit: '2027-01-05T10:15:00.000Z' });
    expect(() => checkNoShow(POLICY, at(15))).not.toThrow();
    expect(() => checkNoShowRevert({ markedAt: START, now: START + 23 * 3_600_000 })).not.toThrow();
    expect(refusal(() => checkNoShowRevert({ markedAt: START, now: START + 25 * 3_600_000 })).problem).toMatchObject({ rule: 'no_show_revert_window' });
  });
});

describe('SEQUENCE (RFC 5545 §3.8.7.4: it grows when the calendar STATUS changes)', () => {
  it.each([
    ['confirm', 'held', true],
    ['release', 'held', true],
    ['expire', 'held', true],
    ['cancel', 'held', true],
    ['cancel', 'booked', true],
    ['entered_in_error', 'held', true],
    ['entered_in_error', 'booked', true],
    ['entered_in_error', 'checked_in', true],
    ['entered_in_error', 'noshow', true],
    ['check_in', 'booked', false],
    ['complete', 'checked_in', false],
    ['no_show', 'booked', false],
    ['no_show_revert', 'noshow', false],
  ] as const)('%s from %s changes it: %s', (move, from, changes) => {
    expect(changesCalendarStatus(from, nextStatus(from, move))).toBe(changes);
  });
});

describe('the student an appointment is for', () => {
  const student = { userId: '6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f', role: 'student' };

  it('is the student themselves, whether they name their id in lower or upper case, or not at all', () => {
    expect(studentFor(student, '')).toBe(student.userId);
    expect(studentFor(student, student.userId)).toBe(student.userId);
    expect(studentFor(student, student.userId.toUpperCase())).toBe(student.userId);
  });

  it('is never another student', () => {
    expect(refusal(() => studentFor(student, '7f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f')).code).toBe(GrpcStatus.PERMISSION_DENIED);
  });
});
