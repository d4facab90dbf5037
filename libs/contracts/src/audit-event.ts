import { z } from 'zod';
import { AUDIT_SCHEMA_VERSION, SUBJECTS_VERSION } from './audited-entities';
import { FINANCE_LIMITS, SCHEDULING_LIMITS } from './api/limits';

const userId = z.string().min(1).max(64);

/**
 * The most subjects one event can hold: a bulk operation's records each name at most one student's user, and an
 * appointment moved between resources names its student and the staff of both.
 */
const MAX_SUBJECTS = Math.max(FINANCE_LIMITS.bulkItems, 1 + 2 * SCHEDULING_LIMITS.links);

/**
 * The fields of every message on the finance.events, scheduling.events and identity.events exchanges (JSON, UTF-8).
 * The routing key is `action`; the AMQP messageId is `eventId`. docs/AUDIT.md
 * describes every field, and which entity `before`/`after` hold for each action. A consumer that reads only some
 * picks them from here (the notifications service).
 */
export const auditEventFields = z.object({
  eventId: z.uuid(),
  occurredAt: z.iso.datetime({ offset: true }),
  action: z.string().regex(/^[a-z_]+\.[a-z_]+$/),
  entityType: z.string().min(1).max(64),
  entityIds: z.array(z.string().min(1).max(64)).min(1).max(1000),
  actor: z.object({ userId, role: z.string().min(1).max(32) }).strict(),
  requestId: z.string().min(1).max(200),
  /**
   * Absent: version 1 (before the field existed). A version this service does not know yet is
   * refused (dead-lettered, to be replayed once the audit service knows it): deploy audit first.
   */
  schemaVersion: z.int().min(2).max(AUDIT_SCHEMA_VERSION).optional(),
  /**
   * The users who, besides the roles that reach every such record, could read the entity through the API just
   * before or just after the change (the producing service's access rules, at the time of the change). From
   * SUBJECTS_VERSION on.
   */
  subjects: z.array(userId).max(MAX_SUBJECTS).optional(),
  /** The entity as the API shows it (AUDITED_ENTITIES), not checked here: the log keeps what happened. */
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
});

/** An event as the audit log takes it: every field, nothing else, and `subjects` exactly from its version on. */
export const auditEventSchema = auditEventFields
  .strict()
  .refine((event) => (event.subjects !== undefined) === ((event.schemaVersion ?? 1) >= SUBJECTS_VERSION), {
    path: ['subjects'],
    message: `is required from schemaVersion ${SUBJECTS_VERSION} on, and unknown before it`,
  });

export type AuditEvent = z.infer<typeof auditEventSchema>;
