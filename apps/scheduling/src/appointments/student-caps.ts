import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { GrpcStatus, ProblemError } from '@libs/grpc';
import type { Policy } from './policy';

/** The caps a student's own hold or booking is checked against (docs/SCHEDULING.md, "Per-student caps"). */
export const CAP_RULES = ['max_active_per_student', 'max_holds_per_student'] as const;
type CapRule = (typeof CAP_RULES)[number];

function capRefusal(rule: CapRule, message: string, cap: number): ProblemError {
  return new ProblemError(GrpcStatus.OUT_OF_RANGE, message, { type: 'policy', rule, cap });
}

/**
 * Refuses a student's hold or booking of a service when they already have as many live appointments of it as the
 * policy allows (live: held and not expired, booked or checked in, and not ended), or, for a hold, as many holds.
 * Runs in the write's transaction after a lock on (student, service): without it two concurrent bookings of
 * one student would each count the other's row as absent and both pass.
 */
export async function checkStudentCaps(
  sequelize: Sequelize,
  transaction: Transaction,
  input: { studentId: string; serviceId: string; policy: Policy; status: 'held' | 'booked' },
): Promise<void> {
  const { studentId, serviceId, policy } = input;
  await sequelize.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', { bind: [`student-caps/${studentId}/${serviceId}`], transaction });
  const [counts] = await sequelize.query<{ live: number; holds: number }>(
    `SELECT count(*)::int AS live, count(*) FILTER (WHERE status = 'held')::int AS holds
       FROM appointments
      WHERE student_id = $1 AND service_id = $2 AND upper(span) > now()
        AND (status IN ('booked', 'checked_in') OR (status = 'held' AND hold_expires_at > now()))`,
    { bind: [studentId, serviceId], type: QueryTypes.SELECT, transaction },
  );
  if (counts.live >= policy.maxActivePerStudent) {
    throw capRefusal('max_active_per_student', `a student may have at most ${policy.maxActivePerStudent} appointments of this service that have not ended`, policy.maxActivePerStudent);
  }
  if (input.status === 'held' && counts.holds >= policy.maxHoldsPerStudent) {
    throw capRefusal('max_holds_per_student', `a student may hold at most ${policy.maxHoldsPerStudent} slots of this service at once`, policy.maxHoldsPerStudent);
  }
}
