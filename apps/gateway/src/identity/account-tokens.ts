import { createHash, randomBytes } from 'node:crypto';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';

/**
 * One-time tokens mailed to an address: proving it (verify_email, 24 h) and resetting a password (password_reset,
 * 30 min). 256 random bits, kept only as a SHA-256 (as sessions and keys are: nothing to guess, so a fast hash), and
 * good once: using one marks it used in the transaction of the change it allows.
 */
export type TokenPurpose = 'verify_email' | 'password_reset';

export const TOKEN_LIFETIME_MINUTES: Record<TokenPurpose, number> = { verify_email: 24 * 60, password_reset: 30 };

/** 43 base64url characters: what a link carries; anything else is refused before the database is asked. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A fresh token and its row id (the id of the mail that carries it); the raw token is returned, never stored here. */
export async function issueToken(
  sequelize: Sequelize,
  transaction: Transaction,
  userId: string,
  purpose: TokenPurpose,
): Promise<{ id: string; token: string }> {
  const token = randomBytes(32).toString('base64url');
  const [row] = await sequelize.query<{ id: string }>(
    `INSERT INTO account_tokens (user_id, purpose, token_hash, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(mins => $4)) RETURNING id`,
    { bind: [userId, purpose, hashToken(token), TOKEN_LIFETIME_MINUTES[purpose]], type: QueryTypes.SELECT, transaction },
  );
  return { id: row.id, token };
}

/**
 * Uses a token: the user it was issued to, when it is of that purpose, unused and unexpired; undefined otherwise
 * (the caller cannot tell which, and neither can the client). Every other unused token of that user and purpose
 * is spent with it: once a link worked, older links must not.
 */
export async function useToken(sequelize: Sequelize, transaction: Transaction, token: string, purpose: TokenPurpose): Promise<string | undefined> {
  const [row] = await sequelize.query<{ user_id: string }>(
    `UPDATE account_tokens SET used_at = now()
      WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now() RETURNING user_id`,
    { bind: [hashToken(token), purpose], type: QueryTypes.SELECT, transaction },
  );
  if (!row) return undefined;
  await sequelize.query('UPDATE account_tokens SET used_at = now() WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL', {
    bind: [row.user_id, purpose],
    transaction,
  });
  return row.user_id;
}

/** Whether a token could be used now (a cheap look before costly work; useToken decides). */
export async function tokenIsLive(sequelize: Sequelize, token: string, purpose: TokenPurpose): Promise<boolean> {
  const rows = await sequelize.query(
    'SELECT 1 FROM account_tokens WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()',
    { bind: [hashToken(token), purpose], type: QueryTypes.SELECT },
  );
  return rows.length > 0;
}
