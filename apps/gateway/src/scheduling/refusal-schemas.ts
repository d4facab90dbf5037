import { z } from 'zod';
import { schedulingFields } from '@libs/contracts';
import { problemSchema, type ResponseDoc } from '../platform/routing/responses';
import { slot } from './schemas';

/**
 * The named refusals the scheduling and appointment operations answer (docs/SCHEDULING.md, "Refusals"), each
 * documented with the members it carries. Their types are `urn:clinical-reference:problem:<name>`
 * (platform/upstreams/grpc-problem.ts).
 */

const refusal = (id: string, members: z.ZodRawShape) => problemSchema.extend(members).meta({ id });

const named = (description: string, schema: z.ZodType): ResponseDoc => ({
  description,
  content: { 'application/problem+json': schema },
});

export const slotTakenProblem = refusal('SlotTakenProblem', {
  alternatives: z.array(slot).optional().meta({ description: 'Up to three free slots, the nearest first (slot_taken).' }),
});

export const illegalTransitionProblem = refusal('IllegalTransitionProblem', {
  currentStatus: z.string().optional(),
  allowedFrom: z.array(z.string()).optional(),
});

export const holdExpiredProblem = refusal('HoldExpiredProblem', { expiredAt: schedulingFields.instant.optional() });

export const policyProblem = refusal('PolicyProblem', {
  rule: z.string().optional().meta({ description: 'The rule that refused: min_notice, beyond_horizon, cancel_cutoff, max_active_per_student, …' }),
  limit: schedulingFields.instant.optional().meta({ description: 'The instant the rule turns (time rules).' }),
  cap: z.int().optional().meta({ description: "The policy's cap that was reached (max_active_per_student, max_holds_per_student)." }),
});

export const REFUSALS = {
  /** slot_taken or student_busy, or the same Idempotency-Key with another request. */
  conflict: named('The slot was taken meanwhile (`alternatives`), the student is busy then, or the Idempotency-Key was used with another request.', slotTakenProblem),
  illegalTransition: named('Not allowed from the current status (`currentStatus`, `allowedFrom`).', illegalTransitionProblem),
  holdExpired: named('The hold expired (`expiredAt`).', holdExpiredProblem),
  policy: named('A policy rule refused (`rule`, and `limit` or `cap`).', policyProblem),
};
