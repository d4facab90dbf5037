import { randomUUID } from 'node:crypto';
import type { Sequelize, Transaction } from 'sequelize';
import type { AuditEvent } from '@libs/contracts';
import type { Actor, CallContext } from '@libs/grpc';
import { traceHeaders } from '@libs/tracing';

export interface EventDraft {
  action: string;
  entityType: string;
  entityIds: string[];
  before: unknown;
  after: unknown;
}

/**
 * Writes the audit event of a change into the outbox, inside the change's own
 * transaction: either both commit or neither does, so no change goes unaudited.
 */
export async function recordEvent(
  sequelize: Sequelize,
  transaction: Transaction,
  context: CallContext,
  actor: Actor,
  draft: EventDraft,
): Promise<AuditEvent> {
  const event: AuditEvent = {
    eventId: randomUUID(),
    occurredAt: new Date().toISOString(),
    action: draft.action,
    entityType: draft.entityType,
    entityIds: draft.entityIds,
    actor: { userId: actor.userId, role: actor.role },
    requestId: context.requestId,
    before: draft.before ?? null,
    after: draft.after ?? null,
  };
  await sequelize.query(
    'INSERT INTO outbox (event_id, routing_key, payload, request_id, trace_parent) VALUES ($1, $2, $3::jsonb, $4, $5)',
    {
      bind: [event.eventId, event.action, JSON.stringify(event), event.requestId, traceHeaders().traceparent ?? null],
      transaction,
    },
  );
  return event;
}
