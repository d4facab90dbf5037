import { QueryTypes, type Sequelize } from 'sequelize';
import { IDENTITY_LIMITS } from '@libs/contracts';

const { loginFailuresPerAccount, loginFailuresPerAddress, registrationsPerAddress, resetRequestsPerAddress } = IDENTITY_LIMITS;
const THROTTLE_WINDOW_SECONDS = IDENTITY_LIMITS.throttleWindowMinutes * 60;

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Counts one attempt against a subject before the password is checked, in
 * one statement, so that parallel guesses cannot slip past the limit; a
 * successful sign-in takes its attempt back. Every gateway instance shares the
 * counts through the database.
 */
async function countAttempt(sequelize: Sequelize, subject: string, limit: number): Promise<ThrottleVerdict> {
  const [row] = await sequelize.query<{ attempts: number; retry_after: number }>(
    `INSERT INTO login_throttle AS t (subject, attempts, window_started_at) VALUES ($1, 1, now())
     ON CONFLICT (subject) DO UPDATE SET
       attempts = CASE WHEN t.window_started_at < now() - make_interval(secs => $2) THEN 1 ELSE t.attempts + 1 END,
       window_started_at = CASE WHEN t.window_started_at < now() - make_interval(secs => $2) THEN now() ELSE t.window_started_at END
     RETURNING attempts,
       ceil(extract(epoch FROM t.window_started_at + make_interval(secs => $2) - now()))::int AS retry_after`,
    { bind: [subject, THROTTLE_WINDOW_SECONDS], type: QueryTypes.SELECT },
  );
  return row.attempts > limit ? { allowed: false, retryAfterSeconds: Math.max(1, row.retry_after) } : { allowed: true };
}

const subjects = (email: string, address: string) => ({ account: `account:${email}`, address: `ip:${address}` });
const registrationSubject = (address: string) => `register:${address}`;
const resetSubject = (address: string) => `reset:${address}`;

const SWEEP_EVERY_MS = 60_000;
let lastSweep = 0;

/** Rows whose window has ended count nothing any more; dropping them keeps the table as small as the live windows. */
async function sweepExpired(sequelize: Sequelize): Promise<void> {
  if (Date.now() - lastSweep < SWEEP_EVERY_MS) return;
  lastSweep = Date.now();
  await sequelize.query('DELETE FROM login_throttle WHERE window_started_at < now() - make_interval(secs => $1)', {
    bind: [THROTTLE_WINDOW_SECONDS],
  });
}

/**
 * Counts a sign-in attempt for the client address, then for the account;
 * refused when either is over its limit. A refused address counts nothing
 * against accounts, so a flood of made-up emails adds no rows.
 */
export async function admitLoginAttempt(sequelize: Sequelize, email: string, address: string): Promise<ThrottleVerdict> {
  await sweepExpired(sequelize);
  const { account, address: client } = subjects(email, address);
  const byAddress = await countAttempt(sequelize, client, loginFailuresPerAddress);
  if (!byAddress.allowed) return byAddress;
  return countAttempt(sequelize, account, loginFailuresPerAccount);
}

/** A correct password: the account starts afresh and the address gets its attempt back. */
export async function forgiveLoginAttempt(sequelize: Sequelize, email: string, address: string): Promise<void> {
  const { account, address: client } = subjects(email, address);
  await sequelize.query('DELETE FROM login_throttle WHERE subject = $1', { bind: [account] });
  await sequelize.query('UPDATE login_throttle SET attempts = greatest(attempts - 1, 0) WHERE subject = $1', {
    bind: [client],
  });
}

/** Counts a registration from the client address, refused over the limit; every attempt counts, accepted or not. */
export async function admitRegistration(sequelize: Sequelize, address: string): Promise<ThrottleVerdict> {
  await sweepExpired(sequelize);
  return countAttempt(sequelize, registrationSubject(address), registrationsPerAddress);
}

/** Counts a password reset request from the client address, refused over the limit, whether or not the email has an account. */
export async function admitResetRequest(sequelize: Sequelize, address: string): Promise<ThrottleVerdict> {
  await sweepExpired(sequelize);
  return countAttempt(sequelize, resetSubject(address), resetRequestsPerAddress);
}
