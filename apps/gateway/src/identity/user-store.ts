import { QueryTypes, type Sequelize } from 'sequelize';
import type { Role } from '@libs/contracts';

export interface User {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
}

interface UserRow {
  id: string;
  email: string;
  role: Role;
  created_at: Date;
}

const USER_COLUMNS = 'id, email, role, created_at';
const toUser = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  role: row.role,
  createdAt: new Date(row.created_at).toISOString(),
});

/**
 * Creates a user, or does nothing when the email has an account already (the
 * unique email decides races, and an existing account, its password included,
 * is never changed). One statement either way. True when it created the user.
 */
export async function createUser(sequelize: Sequelize, email: string, passwordHash: string, role: Role): Promise<boolean> {
  const rows = await sequelize.query(
    `INSERT INTO users (email, password_hash, role) VALUES ($1, $2, $3) ON CONFLICT (email) DO NOTHING RETURNING id`,
    { bind: [email, passwordHash, role], type: QueryTypes.SELECT },
  );
  return rows.length > 0;
}

export async function findUserCredentials(
  sequelize: Sequelize,
  email: string,
): Promise<{ user: User; passwordHash: string | null } | undefined> {
  const [row] = await sequelize.query<UserRow & { password_hash: string | null }>(
    `SELECT ${USER_COLUMNS}, password_hash FROM users WHERE email = $1`,
    { bind: [email], type: QueryTypes.SELECT },
  );
  return row && { user: toUser(row), passwordHash: row.password_hash };
}

/** Replaces a user's password hash, unless it changed since it was read (`previous`). */
export async function replacePasswordHash(sequelize: Sequelize, userId: string, previous: string, hash: string): Promise<void> {
  await sequelize.query('UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2', { bind: [userId, previous, hash] });
}

export async function findUser(sequelize: Sequelize, userId: string): Promise<User | undefined> {
  const [row] = await sequelize.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, {
    bind: [userId],
    type: QueryTypes.SELECT,
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

export async function setUserRole(sequelize: Sequelize, userId: string, role: Role): Promise<User | undefined> {
  const [row] = await sequelize.query<UserRow>(
    `UPDATE users SET role = $2, updated_at = now() WHERE id = $1 RETURNING ${USER_COLUMNS}`,
    { bind: [userId, role], type: QueryTypes.SELECT },
  );
  return row && toUser(row);
}
