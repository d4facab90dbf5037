import { z } from 'zod';

/**
 * The body of every message on the finance.events exchange (JSON, UTF-8).
 * The routing key is `action`; the AMQP messageId is `eventId`.
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
    before: z.unknown().nullable(),
    after: z.unknown().nullable(),
  })
  .strict();

export type AuditEvent = z.infer<typeof auditEventSchema>;
