import { SCHEDULING_LIMITS, type schedulingV1 } from '@libs/contracts';
import { GrpcStatus, ProblemError } from '@libs/grpc';
import { MS_PER_MINUTE } from '../time/zoned-time';

/** A service's booking rules (the contract's Policy), snapshotted on each appointment when it is made. */
export type Policy = schedulingV1.Policy;

const { noShowRevertHours } = SCHEDULING_LIMITS;

export const RULES = [
  'min_notice',
  'beyond_horizon',
  'cancel_cutoff',
  'reschedule_cutoff',
  'check_in_window',
  'no_show_grace',
  'no_show_revert_window',
  'appointment_ended',
] as const;
export type Rule = (typeof RULES)[number];

/** A refusal by a rule of the policy (HTTP 422), naming the rule and the instant it turns on or off. */
export function policyRefusal(rule: Rule, message: string, limit: number): ProblemError {
  return new ProblemError(GrpcStatus.OUT_OF_RANGE, message, { type: 'policy', rule, limit: new Date(limit).toISOString() });
}

export interface Timing {
  now: number;
  start: number;
  end: number;
}

/** Staff act for the schedule; students for themselves, within the cut-offs. */
export type ActorKind = 'student' | 'staff';

const minutes = (count: number) => count * MS_PER_MINUTE;

/**
 * A cancellation: a student only before the cut-off; staff until the end, flagged late after the cut-off.
 * Returns the late flag.
 */
export function cancellation(policy: Policy, timing: Timing, by: ActorKind): { late: boolean } {
  const cutoff = timing.start - minutes(policy.cancelCutoffMinutes);
  const late = timing.now > cutoff;
  if (late && by === 'student') {
    throw policyRefusal('cancel_cutoff', `a student may cancel until ${policy.cancelCutoffMinutes} minutes before the start`, cutoff);
  }
  if (timing.now >= timing.end) throw policyRefusal('appointment_ended', 'the appointment has ended', timing.end);
  return { late };
}

/** A reschedule: a student only before the cut-off; staff until the end. */
export function checkReschedule(policy: Policy, timing: Timing, by: ActorKind): void {
  const cutoff = timing.start - minutes(policy.rescheduleCutoffMinutes);
  if (by === 'student' && timing.now > cutoff) {
    throw policyRefusal('reschedule_cutoff', `a student may reschedule until ${policy.rescheduleCutoffMinutes} minutes before the start`, cutoff);
  }
  if (timing.now >= timing.end) throw policyRefusal('appointment_ended', 'the appointment has ended', timing.end);
}

/** Check-in is open from the start minus the window to the end. */
export function checkCheckIn(policy: Policy, timing: Timing): void {
  const opens = timing.start - minutes(policy.checkInWindowMinutes);
  if (timing.now < opens) throw policyRefusal('check_in_window', `check-in opens ${policy.checkInWindowMinutes} minutes before the start`, opens);
  if (timing.now >= timing.end) throw policyRefusal('check_in_window', 'check-in closes at the end of the appointment', timing.end);
}

/** Completing a booked appointment (without check-in) is possible once it has started. */
export function checkComplete(timing: Timing): void {
  if (timing.now < timing.start) throw policyRefusal('appointment_ended', 'an appointment can be completed once it has started', timing.start);
}

/** A no-show only after the start plus the grace. */
export function checkNoShow(policy: Policy, timing: Timing): void {
  const from = timing.start + minutes(policy.noShowGraceMinutes);
  if (timing.now < from) throw policyRefusal('no_show_grace', `a no-show can be marked ${policy.noShowGraceMinutes} minutes after the start`, from);
}

/** A no-show may be reverted (the student came after all) within noShowRevertHours of marking it. */
export function checkNoShowRevert(timing: { now: number; markedAt: number }): void {
  const until = timing.markedAt + noShowRevertHours * 3_600_000;
  if (timing.now > until) throw policyRefusal('no_show_revert_window', `a no-show can be reverted within ${noShowRevertHours} hours`, until);
}
