/**
 * Whether an event reaches an endpoint, as SQL over `endpoints e JOIN recipients r ON r.user_id = e.owner_id`: the
 * endpoint is subscribed to the event's type, and its owner's role receives every event of the event's source, or
 * every event of its type (an entity the role reads whole), or the events of its type whose subjects hold the owner.
 * The event's type, source and subjects are SQL expressions (binds or columns); the query binds REACH_BINDS too. The fan-out and recover decide alike through it.
 */
export const reaches = (event: { type: string; source: string; subjects: string }): string =>
  `(${event.type} = ANY (e.event_types) OR '*' = ANY (e.event_types))
   AND (r.role || ':' || ${event.source} = ANY ($everyEvent::text[])
        OR r.role || ':' || ${event.type} = ANY ($wholeRead::text[])
        OR (r.role || ':' || ${event.type} = ANY ($bySubjects::text[]) AND r.user_id = ANY (coalesce(${event.subjects}, '{}'))))`;
