import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { SIGN_UP_ROLE, type Role } from '@libs/contracts';
import { recordIdentityEvent, type ChangeContext } from './identity-events';

export interface User {
  id: string;
  email: string;
  role: Role;
  /** Whether the owner proved the address (a mailed link, or a password reset); until then the account stays a reader. */
  emailVerified: boolean;
  createdAt: string;
}

interface UserRow {
  id: string;
  email: string;
  role: Role;
  email_verified: boolean;
  created_at: Date;
}

const USER_COLUMNS = 'id, email, role, email_verified, created_at';
const toUser = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  role: row.role,
  emailVerified: row.email_verified,
  createdAt: new Date(row.created_at).toISOString(),
});

/** What identity.events say of a user (no password or hash: the snapshot type has no place for one). */
const snapshotOf = ({ id, email, role, emailVerified }: User) => ({ id, email, role, emailVerified });

/**
 * Creates a user and records `user.registered`, or does nothing when the email has an account already (the unique
 * email decides races, and an existing account, its password included, is never changed). One statement either
 * way. The user when it created one.
 */
export async function createUser(
  sequelize: Sequelize,
  transaction: Transaction,
  change: ChangeContext,
  account: { email: string; passwordHash: string | null; role: Role; emailVerified: boolean },
): Promise<User | undefined> {
  const [row] = await sequelize.query<UserRow>(
    `INSERT INTO users (email, password_hash, role, email_verified) VALUES ($1, $2, $3, $4)
     ON CONFLICT (email) DO NOTHING RETURNING ${USER_COLUMNS}`,
    { bind: [account.email, account.passwordHash, account.role, account.emailVerified], type: QueryTypes.SELECT, transaction },
  );
  if (!row) return undefined;
  const user = toUser(row);
  await recordIdentityEvent(sequelize, transaction, change, {
    action: 'user.registered',
    entityType: 'user',
    after: { ...snapshotOf(user), createdAt: user.createdAt },
  });
  return user;
}

export async function findUserCredentials(
  sequelize: Sequelize,
  email: string,
  transaction?: Transaction,
): Promise<{ user: User; passwordHash: string | null } | undefined> {
  const [row] = await sequelize.query<UserRow & { password_hash: string | null }>(
    `SELECT ${USER_COLUMNS}, password_hash FROM users WHERE email = $1`,
    { bind: [email], type: QueryTypes.SELECT, transaction },
  );
  return row && { user: toUser(row), passwordHash: row.password_hash };
}

/** Replaces a user's password hash, unless it changed since it was read (`previous`): a rehash, not a change of password. */
export async function replacePasswordHash(sequelize: Sequelize, userId: string, previous: string, hash: string): Promise<void> {
  await sequelize.query('UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2', { bind: [userId, previous, hash] });
}

export async function findUser(sequelize: Sequelize, userId: string, transaction?: Transaction, lock = false): Promise<User | undefined> {
  const [row] = await sequelize.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, {
    bind: [userId],
    type: QueryTypes.SELECT,
    transaction,
  });
  return row && toUser(row);
}

/** Users by email, a page at a time: `after` is the last email of the previous page. */
export async function listUsers(sequelize: Sequelize, options: { after?: string; limit: number }): Promise<User[]> {
  const rows = await sequelize.query<UserRow>(
    `SELECT ${USER_COLUMNS} FROM users WHERE $1::text IS NULL OR email > $1 ORDER BY email LIMIT $2`,
    { bind: [options.after ?? null, options.limit], type: QueryTypes.SELECT },
  );
  return rows.map(toUser);
}

/**
 * Gives a user a role and records `user.role_changed` (nothing when the role is the same). An account whose
 * address is not proved may only be a reader: whoever registered it may not own the address, and a role given to
 * "that email" must reach its owner (`unverified`).
 */
export async function setUserRole(
  sequelize: Sequelize,
  change: ChangeContext,
  userId: string,
  role: Role,
): Promise<User | 'unverified' | undefined> {
  return sequelize.transaction(async (transaction) => {
    const before = await findUser(sequelize, userId, transaction, true);
    if (!before) return undefined;
    if (!before.emailVerified && role !== SIGN_UP_ROLE) return 'unverified';
    if (before.role === role) return before;
    const [row] = await sequelize.query<UserRow>(
      `UPDATE users SET role = $2, updated_at = now() WHERE id = $1 RETURNING ${USER_COLUMNS}`,
      { bind: [userId, role], type: QueryTypes.SELECT, transaction },
    );
    const after = toUser(row);
    await recordIdentityEvent(sequelize, transaction, change, {
      action: 'user.role_changed',
      entityType: 'user',
      before: snapshotOf(before),
      after: snapshotOf(after),
    });
    return after;
  });
}

/** Marks the user's address as proved and records `user.email_verified`; false when it was proved already. */
export async function markEmailVerified(sequelize: Sequelize, transaction: Transaction, change: ChangeContext, userId: string): Promise<boolean> {
  const [row] = await sequelize.query<UserRow>(
    `UPDATE users SET email_verified = true, updated_at = now() WHERE id = $1 AND NOT email_verified RETURNING ${USER_COLUMNS}`,
    { bind: [userId], type: QueryTypes.SELECT, transaction },
  );
  if (!row) return false;
  await recordIdentityEvent(sequelize, transaction, change, { action: 'user.email_verified', entityType: 'user', after: snapshotOf(toUser(row)) });
  return true;
}

/** Sets a new password and records `user.password_changed` with why. */
export async function setPassword(
  sequelize: Sequelize,
  transaction: Transaction,
  change: ChangeContext,
  userId: string,
  passwordHash: string,
  reason: 'change' | 'reset',
): Promise<void> {
  const [row] = await sequelize.query<UserRow>(
    `UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1 RETURNING ${USER_COLUMNS}`,
    { bind: [userId, passwordHash], type: QueryTypes.SELECT, transaction },
  );
  await recordIdentityEvent(sequelize, transaction, change, {
    action: 'user.password_changed',
    entityType: 'user',
    after: { id: row.id, email: row.email, reason },
  });
}
