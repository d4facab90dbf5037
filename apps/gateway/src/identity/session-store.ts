import { createHash, randomBytes } from 'node:crypto';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { Role } from '@libs/contracts';

/** `cfs_` and 256 random bits: a dashboard sign-in, distinct at a glance from an API key (`cfk_`). */
const SESSION_PATTERN = /^cfs_[A-Za-z0-9_-]{43}$/;

export const looksLikeSessionToken = (candidate: string): boolean => SESSION_PATTERN.test(candidate);

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export interface SessionOwner {
  userId: string;
  email: string;
  role: Role;
}

export async function createSession(
  sequelize: Sequelize,
  userId: string,
  ttlMinutes: number,
): Promise<{ token: string; expiresAt: string }> {
  const token = `cfs_${randomBytes(32).toString('base64url')}`;
  const [row] = await sequelize.query<{ expires_at: Date }>(
    `INSERT INTO sessions (user_id, token_hash, expires_at)
     VALUES ($1, $2, now() + make_interval(mins => $3)) RETURNING expires_at`,
    { bind: [userId, hashToken(token), ttlMinutes], type: QueryTypes.SELECT },
  );
  // Expired sessions are swept here rather than by a timer: sign-ins are rare and this keeps the table small.
  await sequelize.query("DELETE FROM sessions WHERE expires_at < now() - interval '1 day'");
  return { token, expiresAt: new Date(row.expires_at).toISOString() };
}

/** Sessions are looked up on every dashboard call (no cache): signing out or a role change applies at once. */
export async function findSessionOwner(sequelize: Sequelize, token: string): Promise<SessionOwner | undefined> {
  const [row] = await sequelize.query<{ user_id: string; email: string; role: Role }>(
    `SELECT u.id AS user_id, u.email, u.role FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.token_hash = $1 AND s.expires_at > now()`,
    { bind: [hashToken(token)], type: QueryTypes.SELECT },
  );
  return row && { userId: row.user_id, email: row.email, role: row.role };
}

export async function deleteSession(sequelize: Sequelize, token: string): Promise<void> {
  await sequelize.query('DELETE FROM sessions WHERE token_hash = $1', { bind: [hashToken(token)] });
}
