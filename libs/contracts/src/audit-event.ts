import { z } from 'zod';
import { AUDIT_SCHEMA_VERSION } from './audited-entities';

/**
 * The body of every message on the finance.events exchange (JSON, UTF-8).
 * The routing key is `action`; the AMQP messageId is `eventId`. docs/AUDIT.md
 * describes every field, and which entity `before`/`after` hold for each action.
 */
export const auditEventSchema = z
  .object({
    eventId: z.uuid(),
    occurredAt: z.iso.datetime({ offset: true }),
    action: z.string().regex(/^[a-z_]+\.[a-z_]+$/),
    entityType: z.string().min(1).max(64),
    entityIds: z.array(z.string().min(1).max(64)).min(1).max(1000),
    actor: z.object({ userId: z.string().min(1).max(64), role: z.string().min(1).max(32) }).strict(),
    requestId: z.string().min(1).max(200),
    /**
     * Absent: version 1 (before the field existed). A version this service does not know yet is
     * refused (dead-lettered, to be replayed once the audit service knows it): deploy audit first.
     */
    schemaVersion: z.int().min(2).max(AUDIT_SCHEMA_VERSION).optional(),
    /** The entity as the API shows it (AUDITED_ENTITIES), not checked here: the log keeps what happened. */
    before: z.unknown().nullable(),
    after: z.unknown().nullable(),
  })
  .strict();

export type AuditEvent = z.infer<typeof auditEventSchema>;
