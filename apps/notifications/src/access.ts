import { isGranted, ROLES, type EventSource, type Role } from '@libs/contracts';
import type { Actor } from '@libs/grpc';

/**
 * What an endpoint's owner receives, by the owner's role: every event of some sources, and events whose `subjects`
 * (the users who may read the entity through the API) hold them. It mirrors what each role reads through the API
 * (docs/WEBHOOKS.md, "Who receives what"): admin everything, a bursar every finance record, a student or a clinician
 * only the records that name them. A role not listed receives nothing but the pings it asks for: a new role gets a
 * reach here on purpose, never by default.
 */
interface Reach {
  everyEventOf: readonly EventSource[];
  bySubjects: boolean;
}

const REACH = {
  admin: { everyEventOf: ['finance', 'scheduling'], bySubjects: false },
  bursar: { everyEventOf: ['finance'], bySubjects: false },
  student: { everyEventOf: [], bySubjects: true },
  clinician: { everyEventOf: [], bySubjects: true },
} as const satisfies Partial<Record<Role, Reach>>;

const reachOf = (role: Role): Reach | undefined => (Object.hasOwn(REACH, role) ? REACH[role as keyof typeof REACH] : undefined);

/**
 * The reach table as SQL binds: `role:source` for each source a role receives every event of, and the roles that
 * receive the events whose subjects hold them (events/reach.ts).
 */
export const REACH_BINDS = {
  everyEvent: ROLES.flatMap((role) => (reachOf(role)?.everyEventOf ?? []).map((source) => `${role}:${source}`)),
  bySubjects: ROLES.filter((role) => reachOf(role)?.bySubjects),
};

/** Whether the actor may see and change endpoints owned by `ownerId`: their own, or any with the permission. */
export const mayManage = (actor: Actor, ownerId: string): boolean => actor.userId === ownerId || isGranted(actor.role, 'webhooks:any-owner');
