import { z } from 'zod';
import { schedulingFields, type schedulingV1 } from '@libs/contracts';
import { problemSchema, type ResponseDoc } from '../platform/routing/responses';

/**
 * What the scheduling and appointment operations both answer: a free slot (slot search, and the alternatives
 * of a refused booking) and the named refusals (docs/SCHEDULING.md, "Refusals"), each documented with the
 * members it carries. Their types are `urn:clinical-reference:problem:<name>` (platform/upstreams/grpc-problem.ts).
 */

export const slot = z
  .object({
    slotToken: z.string().meta({ description: 'Names the service, resource and start, signed by the service: send it back to hold or book.' }),
    start: schedulingFields.instant,
    end: schedulingFields.instant,
    timeZone: z.string().meta({ description: "The location's IANA zone; `start` and `end` carry its offset." }),
    resourceId: z.guid(),
    locationId: z.string(),
    serviceId: z.guid(),
    viewerStart: schedulingFields.instant.optional().meta({ description: "`start` on the viewer's clock, when `timeZone` was given." }),
    viewerEnd: schedulingFields.instant.optional(),
  })
  .meta({ id: 'Slot' });

/** A slot as the API shows it: the viewer's times only when the search named a viewer's zone. */
export const toSlotJson = (m: schedulingV1.Slot): z.infer<typeof slot> => ({
  slotToken: m.slotToken,
  start: m.start,
  end: m.end,
  timeZone: m.timeZone,
  resourceId: m.resourceId,
  locationId: m.locationId,
  serviceId: m.serviceId,
  ...(m.viewerStart ? { viewerStart: m.viewerStart, viewerEnd: m.viewerEnd } : {}),
});

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
  rule: z.string().optional().meta({ description: 'The rule that refused: min_notice, beyond_horizon, cancel_cutoff, …' }),
  limit: schedulingFields.instant.optional().meta({ description: 'The instant the rule turns.' }),
});

export const REFUSALS = {
  /** slot_taken or student_busy, or the same Idempotency-Key with another request. */
  conflict: named('The slot was taken meanwhile (`alternatives`), the student is busy then, or the Idempotency-Key was used with another request.', slotTakenProblem),
  illegalTransition: named('Not allowed from the current status (`currentStatus`, `allowedFrom`).', illegalTransitionProblem),
  holdExpired: named('The hold expired (`expiredAt`).', holdExpiredProblem),
  policy: named('A policy rule refused (`rule`, `limit`).', policyProblem),
};
