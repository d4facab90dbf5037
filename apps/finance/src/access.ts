import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { EntityMessage, Role } from '@libs/contracts';
import type { Statement } from '@libs/db';
import { reachIn, type Actor } from '@libs/grpc';
import { recordsOf, type EventDraft } from '@libs/outbox';

/** Every student's records, or only the actor's own (the student row whose user_id is the actor). */
type Reach = 'all' | 'own';

/**
 * Whose records each role reaches, once the permission table (@libs/contracts; docs/FINANCE.md, Roles) has let
 * it read or pay. A role not listed reaches nothing and is refused (reachIn), whatever it was granted.
 */
const REACH = { student: 'own', bursar: 'all', admin: 'all' } as const satisfies Partial<Record<Role, Reach>>;

export const reachOf = (actor: Actor): Reach => reachIn(REACH, actor);

/** The records an actor may read. Its own, without a student row, are none: every read finds nothing. */
export type Scope = { kind: 'all' } | { kind: 'own'; studentId: string | null };

/**
 * The 'own' reach is the link of a student row to a user (students.user_id), read in both directions: from a
 * user to the student it reaches (scopeOf, for the read checks), and from students to the users who reach their
 * records (usersOfStudents, for an event's subjects).
 */
export async function scopeOf(sequelize: Sequelize, actor: Actor, transaction?: Transaction): Promise<Scope> {
  if (reachOf(actor) === 'all') return { kind: 'all' };
  const [row] = await sequelize.query<{ id: string }>('SELECT id FROM students WHERE user_id = $1', {
    bind: [actor.userId],
    type: QueryTypes.SELECT,
    transaction,
  });
  return { kind: 'own', studentId: row?.id ?? null };
}

/** The users whose 'own' reach covers the records of these students: the converse of scopeOf. */
export const usersOfStudents = (studentIds: string[]): Statement => ({
  name: 'finance.users-of-students',
  text: 'SELECT user_id FROM students WHERE id = ANY($1::uuid[]) AND user_id IS NOT NULL',
  values: [studentIds],
});

/** Whether a record belonging to `studentId` is visible in the scope. */
export const canSee = (scope: Scope, studentId: string | null): boolean =>
  scope.kind === 'all' || (studentId !== null && scope.studentId === studentId);

type FinanceEntity = 'transaction' | 'payment' | 'financial_statement' | 'student' | 'account' | 'category' | 'registration_number';

/** What canSee checks a record against: the student it belongs to, or, for a student row, the user it links to. */
type Owner = { studentId: string } | { userId: string };

/**
 * The owner of each kind of record, as its read checks it: a transaction's, payment's or statement line's
 * student; a student row (getStudent, the statement) is the link itself, so its owner is the user it names as
 * the record shows it, and a student's `before` names a user it was linked to. Null: only the roles that reach
 * every record read that kind (`finance:records:read`).
 */
const OWNER: { [E in FinanceEntity]: ((record: EntityMessage<E>) => Owner) | null } = {
  transaction: (record) => ({ studentId: record.studentId }),
  payment: (record) => ({ studentId: record.studentId }),
  financial_statement: (record) => ({ studentId: record.studentId }),
  student: (record) => ({ userId: record.userId }),
  account: null,
  category: null,
  registration_number: null,
};

/**
 * An event's subjects: the users whose reach is their own records ('own') and who could read a record of
 * `before` or `after` (a record moved to another student, or deleted, reaches the user who loses it too).
 * Whether a subject's role has that reach now is for the consumer to check.
 */
export async function readersOf<E extends FinanceEntity>(sequelize: Sequelize, transaction: Transaction, draft: EventDraft<E>): Promise<string[]> {
  const owner = OWNER[draft.entityType] as ((record: EntityMessage<E>) => Owner) | null;
  if (owner === null) return [];
  const owners = recordsOf(draft).map(owner);
  const users = owners.flatMap((o) => ('userId' in o && o.userId ? [o.userId] : []));
  const students = owners.flatMap((o) => ('studentId' in o && o.studentId ? [o.studentId] : []));
  if (students.length === 0) return users;
  const { text, values } = usersOfStudents(students);
  const rows = await sequelize.query<{ user_id: string }>(text, { bind: values, type: QueryTypes.SELECT, transaction });
  return [...users, ...rows.map((row) => row.user_id)];
}
