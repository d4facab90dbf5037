import type { z } from 'zod';
import { auditEventFields } from '@libs/contracts';

/**
 * What this service reads of an event on finance.events or scheduling.events: which change, to which entities, when,
 * and who may read them (`subjects`, absent on older events). The rest (actor, request, the snapshots' other fields)
 * is the audit log's; fields this service does not read are let through, so a newer event version is not refused.
 */
export const notifiedEventSchema = auditEventFields
  .pick({ eventId: true, occurredAt: true, action: true, entityType: true, entityIds: true, subjects: true, before: true, after: true })
  .loose();

export type NotifiedEvent = z.infer<typeof notifiedEventSchema>;
