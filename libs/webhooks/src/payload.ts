/**
 * The thin payload: what happened and to which object, never the object itself. A receiver fetches the object
 * through the API with its own key, so a webhook carries no data its endpoint's owner could not read anyway, and a
 * late or repeated delivery cannot hand over a stale copy.
 */

/** One object: where to fetch it, and its version (the ETag's) when it has one. */
export interface ObjectReference {
  type: string;
  id: string;
  version?: number;
  url: string;
}

/** A bulk event's objects: their ids, fetched through the type's list. */
export interface BulkReference {
  type: string;
  ids: readonly string[];
}

export interface WebhookPayload {
  /** The event's id, also sent as `webhook-id`: receivers deduplicate on it. */
  id: string;
  /** What happened, e.g. `transaction.created`. */
  type: string;
  /** ISO 8601, UTC. */
  occurredAt: string;
  data: { object: ObjectReference | BulkReference };
}

/** Copies the reference's own fields only, so an entity passed in by mistake cannot leak its other fields. */
function reference(object: ObjectReference | BulkReference): ObjectReference | BulkReference {
  if ('ids' in object) return { type: object.type, ids: [...object.ids] };
  const { type, id, version, url } = object;
  return version === undefined ? { type, id, url } : { type, id, version, url };
}

export function webhookPayload(event: {
  id: string;
  type: string;
  occurredAt: Date;
  object: ObjectReference | BulkReference;
}): WebhookPayload {
  return { id: event.id, type: event.type, occurredAt: event.occurredAt.toISOString(), data: { object: reference(event.object) } };
}
