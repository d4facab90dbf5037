import { createHash, randomBytes } from 'node:crypto';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { Role } from '@libs/contracts';
import { recordIdentityEvent, type ChangeContext } from './identity-events';

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

/**
 * Ends every session of a user (but the one whose token is `keep`, if given) and records `user.sessions_revoked`
 * with how many ended. Every instance sees it at once: sessions are not cached.
 */
export async function revokeSessions(
  sequelize: Sequelize,
  transaction: Transaction,
  change: ChangeContext,
  user: { id: string; email: string },
  keep?: string,
): Promise<number> {
  const ended = await sequelize.query<{ id: string }>(
    'DELETE FROM sessions WHERE user_id = $1 AND ($2::text IS NULL OR token_hash <> $2) RETURNING id',
    { bind: [user.id, keep === undefined ? null : hashToken(keep)], type: QueryTypes.SELECT, transaction },
  );
  await recordIdentityEvent(sequelize, transaction, change, {
    action: 'user.sessions_revoked',
    entityType: 'user',
    after: { id: user.id, email: user.email, sessionsRevoked: ended.length },
  });
  return ended.length;
}
