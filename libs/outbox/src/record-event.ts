import { randomUUID } from 'node:crypto';
import type { Sequelize, Transaction } from 'sequelize';
import {
  AUDIT_SCHEMA_VERSION,
  snapshotJson,
  type AuditedEntityType,
  type AuditEvent,
  type EntityMessage,
  type Snapshot,
} from '@libs/contracts';
import type { Statement } from '@libs/db';
import type { Actor, CallContext } from '@libs/grpc';
import { traceHeaders } from '@libs/tracing';

/** A change, with the entity as its service holds it (its gRPC message); the event carries it in the API's shape. */
export interface EventDraft<E extends AuditedEntityType> {
  action: string;
  entityType: E;
  entityIds: string[];
  before: Snapshot<EntityMessage<E>> | undefined;
  after: Snapshot<EntityMessage<E>> | undefined;
}

/** Every record a draft holds, those of `before` and then those of `after`. */
export const recordsOf = <E extends AuditedEntityType>(draft: EventDraft<E>): EntityMessage<E>[] =>
  [draft.before, draft.after].flatMap((snapshot) => (snapshot ? ([] as EntityMessage<E>[]).concat(snapshot) : []));

/**
 * Who, besides the roles that reach every such record, may read what a draft holds through the API, just before
 * or just after the change (the event's `subjects`): the producing service's access rules (its `access.ts`),
 * read in the change's transaction.
 */
export type Readers<E extends AuditedEntityType> = (sequelize: Sequelize, transaction: Transaction, draft: EventDraft<E>) => Promise<readonly string[]>;

/** The audit event of a change, made by the call that changes it; `subjects` as `Readers` finds them. */
export function auditEventOf<E extends AuditedEntityType>(
  context: CallContext,
  actor: Actor,
  draft: EventDraft<E>,
  subjects: readonly string[],
): AuditEvent {
  return {
    eventId: randomUUID(),
    occurredAt: new Date().toISOString(),
    action: draft.action,
    entityType: draft.entityType,
    entityIds: draft.entityIds,
    actor: { userId: actor.userId, role: actor.role },
    requestId: context.requestId,
    schemaVersion: AUDIT_SCHEMA_VERSION,
    // Once each, in one order: the same readers always make the same event.
    subjects: [...new Set(subjects)].sort(),
    before: snapshotJson(draft.entityType, draft.before ?? null),
    after: snapshotJson(draft.entityType, draft.after ?? null),
  };
}

/** The statement that writes an event into the outbox; it must run in the transaction of the change it describes. */
export const outboxInsert = (event: AuditEvent): Statement => ({
  name: 'outbox.insert',
  text: 'INSERT INTO outbox (event_id, routing_key, payload, request_id, trace_parent) VALUES ($1, $2, $3::jsonb, $4, $5)',
  values: [event.eventId, event.action, JSON.stringify(event), event.requestId, traceHeaders().traceparent ?? null],
});

/**
 * Writes the audit event of a change into the outbox, inside the change's own
 * transaction: either both commit or neither does, so no change goes unaudited.
 * Its subjects are read in that transaction too, after the change.
 */
export async function recordEvent<E extends AuditedEntityType>(
  sequelize: Sequelize,
  transaction: Transaction,
  context: CallContext,
  actor: Actor,
  draft: EventDraft<E>,
  readers: Readers<E>,
): Promise<AuditEvent> {
  const event = auditEventOf(context, actor, draft, await readers(sequelize, transaction, draft));
  const { text, values } = outboxInsert(event);
  await sequelize.query(text, { bind: values, transaction });
  return event;
}
