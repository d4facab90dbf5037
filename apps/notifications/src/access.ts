import {
  EVENT_TYPES,
  grantedRoles,
  isGranted,
  ROLES,
  type AuditedEntityType,
  type EventSource,
  type EventType,
  type EventTypeDeclaration,
  type Permission,
  type Role,
} from '@libs/contracts';
import type { Actor } from '@libs/grpc';

/**
 * What an endpoint's owner receives, by the owner's role: every event of some sources, and the events of some
 * sources whose `subjects` (the users whose narrowed reach covers the entity) hold them. It mirrors what each role
 * reads through the API (docs/WEBHOOKS.md, "Who receives what"): admin everything, a bursar every finance record, a
 * student their own finance records and appointments, a clinician the appointments and blocks of the resources they
 * staff (never finance, even if named: a user once a student keeps no finance reach as a clinician); and every role
 * the identity events about its own account (their subject is the user the change concerns), never another's. A
 * role not listed receives only the events of WHOLE_READS and the pings it asks for: a new role gets a reach here on
 * purpose, never by default.
 */
interface Reach {
  everyEventOf: readonly EventSource[];
  /** Sources whose events reach the owner when their subjects name them (of the kinds the API narrows by record). */
  bySubjectsOf: readonly EventSource[];
}

const REACH = {
  admin: { everyEventOf: ['finance', 'scheduling', 'identity'], bySubjectsOf: [] },
  bursar: { everyEventOf: ['finance'], bySubjectsOf: ['identity'] },
  student: { everyEventOf: [], bySubjectsOf: ['finance', 'scheduling', 'identity'] },
  clinician: { everyEventOf: [], bySubjectsOf: ['scheduling', 'identity'] },
  reader: { everyEventOf: [], bySubjectsOf: ['identity'] },
} as const satisfies Partial<Record<Role, Reach>>;

/**
 * The kinds of entity the API shows whole to every role holding one permission, never narrowed by record: their
 * events reach every owner whose role holds it. Scheduling's setup (locations, services, resources, schedules and
 * blocks: every GET of them is `scheduling:browse`), and finance's supporting records (`finance:records:read`).
 */
const WHOLE_READS: Partial<Record<AuditedEntityType, Permission>> = {
  location: 'scheduling:browse',
  service: 'scheduling:browse',
  resource: 'scheduling:browse',
  schedule: 'scheduling:browse',
  block: 'scheduling:browse',
  account: 'finance:records:read',
  category: 'finance:records:read',
  registration_number: 'finance:records:read',
};

const reachOf = (role: Role): Reach | undefined => (Object.hasOwn(REACH, role) ? REACH[role as keyof typeof REACH] : undefined);

const eventTypes = Object.entries(EVENT_TYPES) as [EventType, EventTypeDeclaration][];

/**
 * The reach table as SQL binds (events/reach.ts): `role:source` for each source a role receives every event of;
 * `role:type` for each event type a role reads whole (WHOLE_READS), and for each type of a source whose subjects
 * reach the role. Subjects count only for kinds the API narrows by record: a kind shown whole is read by a role
 * wholly or not at all, whoever an event names.
 */
export const REACH_BINDS = {
  everyEvent: ROLES.flatMap((role) => (reachOf(role)?.everyEventOf ?? []).map((source) => `${role}:${source}`)),
  wholeRead: eventTypes.flatMap(([type, { entityType }]) => {
    const permission = entityType && WHOLE_READS[entityType];
    return permission ? grantedRoles(permission).map((role) => `${role}:${type}`) : [];
  }),
  bySubjects: ROLES.flatMap((role) =>
    eventTypes
      .filter(([, { source, entityType }]) => reachOf(role)?.bySubjectsOf.includes(source) && entityType && !WHOLE_READS[entityType])
      .map(([type]) => `${role}:${type}`),
  ),
};

/** Whether the actor may see and change endpoints owned by `ownerId`: their own, or any with the permission. */
export const mayManage = (actor: Actor, ownerId: string): boolean => actor.userId === ownerId || isGranted(actor.role, 'webhooks:any-owner');
