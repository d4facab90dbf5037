import { AUDITED_ENTITIES, entityPath, EVENT_TYPES, isEventType, type AuditedEntityType } from '@libs/contracts';
import type { BulkReference, ObjectReference } from '@libs/webhooks';

/** What an event says of its entities, as finance and scheduling publish it. */
export interface ChangedEntities {
  action: string;
  entityType: string;
  entityIds: string[];
  before: unknown;
  after: unknown;
}

const isEntityType = (type: string): type is AuditedEntityType => Object.hasOwn(AUDITED_ENTITIES, type);
const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/**
 * The thin payload's `data.object`: where to read the entity through the API, and its version then; only the ids
 * for a bulk event (or an entity this version does not know the place of). Nothing else of the entity travels.
 */
export function objectOf(event: ChangedEntities, publicApiUrl: string): ObjectReference | BulkReference {
  const bulk = (isEventType(event.action) && 'bulk' in EVENT_TYPES[event.action]) || event.entityIds.length !== 1;
  if (bulk || !isEntityType(event.entityType)) return { type: event.entityType, ids: event.entityIds };
  const snapshot = asRecord(event.after) ?? asRecord(event.before) ?? {};
  const [id] = event.entityIds;
  const url = publicApiUrl + entityPath(event.entityType, id, snapshot);
  return Number.isInteger(snapshot.version) ? { type: event.entityType, id, version: snapshot.version as number, url } : { type: event.entityType, id, url };
}
