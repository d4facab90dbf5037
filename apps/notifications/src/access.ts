import { isGranted, ROLES, type EventSource, type Role } from '@libs/contracts';
import type { Actor } from '@libs/grpc';

/**
 * What an endpoint's owner receives, by the owner's role: every event of some sources, and the events of some
 * sources whose `subjects` (the users who may read the entity through the API) hold them. It mirrors what each role
 * reads through the API (docs/WEBHOOKS.md, "Who receives what"): admin everything, a bursar every finance record, a
 * student or a clinician only the records that name them; and every role the identity events about its own account
 * (their subject is the user the change concerns), never another's. A role not listed receives nothing but the pings
 * it asks for: a new role gets a reach here on purpose, never by default.
 */
interface Reach {
  everyEventOf: readonly EventSource[];
  bySubjectsOf: readonly EventSource[];
}

const REACH = {
  admin: { everyEventOf: ['finance', 'scheduling', 'identity'], bySubjectsOf: [] },
  bursar: { everyEventOf: ['finance'], bySubjectsOf: ['identity'] },
  student: { everyEventOf: [], bySubjectsOf: ['finance', 'scheduling', 'identity'] },
  clinician: { everyEventOf: [], bySubjectsOf: ['scheduling', 'identity'] },
  reader: { everyEventOf: [], bySubjectsOf: ['identity'] },
} as const satisfies Partial<Record<Role, Reach>>;

const reachOf = (role: Role): Reach | undefined => (Object.hasOwn(REACH, role) ? REACH[role as keyof typeof REACH] : undefined);

/** `role:source` for each source whose events a role receives (`pick` of its reach): the form the SQL binds take. */
const pairsOf = (pick: (reach: Reach) => readonly EventSource[]): string[] =>
  ROLES.flatMap((role) => {
    const reach = reachOf(role);
    return reach ? pick(reach).map((source) => `${role}:${source}`) : [];
  });

/**
 * The reach table as SQL binds: `role:source` for each source a role receives every event of, and for each source
 * whose events it receives when among their subjects (events/reach.ts).
 */
export const REACH_BINDS = {
  everyEvent: pairsOf((reach) => reach.everyEventOf),
  bySubjects: pairsOf((reach) => reach.bySubjectsOf),
};

/** Whether the actor may see and change endpoints owned by `ownerId`: their own, or any with the permission. */
export const mayManage = (actor: Actor, ownerId: string): boolean => actor.userId === ownerId || isGranted(actor.role, 'webhooks:any-owner');
