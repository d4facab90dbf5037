import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import { HttpProblem } from '@libs/http-problems';
import { accountOf, requireAccount, unauthorized } from '../auth/authenticate';
import { credentialsBody } from '../auth/credentials';
import { admitLoginAttempt, admitRegistration, forgiveLoginAttempt, type ThrottleVerdict } from '../auth/login-throttle';
import { hashPassword, verifyPassword } from '../auth/password';
import { createSession, deleteSession } from '../auth/session-store';
import { createUser, findUser, findUserCredentials } from '../auth/user-store';
import type { GatewayConfig } from '../config';
import { parseBody } from '../http/json-body';

// One answer for an unknown email and a wrong password, so that nobody can
// learn from it which emails have accounts. Like every 401, it names the
// scheme of the tokens that sign-in issues.
const badCredentials = () => unauthorized('the email or password is wrong');

function refuseWhenThrottled(verdict: ThrottleVerdict, what: string): void {
  if (verdict.allowed) return;
  throw new HttpProblem(429, `too many ${what}; try again in ${verdict.retryAfterSeconds} s`, {
    headers: { 'Retry-After': String(verdict.retryAfterSeconds) },
  });
}

/**
 * What registration answers, whether it created the account or the email had
 * one already: the answer must not tell anyone which emails have accounts
 * (docs/IDENTITY.md). The owner of the address signs in next.
 */
export const REGISTRATION_ACCEPTED = {
  status: 'accepted',
  detail:
    'If this email had no account, it has one now: sign in with this email and password (POST /api/v1/auth/login), ' +
    'then create a key. An email that has an account already keeps it unchanged.',
} as const;

/** Sign-up, sign-in, sign-out and who am I. Register and login are public. */
export function authRoutes(config: GatewayConfig, sequelize: Sequelize): Router {
  const router = Router();

  router.post('/api/v1/auth/register', async (req, res) => {
    const { email, password } = await parseBody(req, res, credentialsBody, 'public');
    // Counted before the password is hashed: a refused registration costs no scrypt.
    refuseWhenThrottled(await admitRegistration(sequelize, req.ip ?? 'unknown'), 'registrations from this address');
    // The same work (a hash, one statement) and the same answer either way.
    const created = await createUser(sequelize, email, await hashPassword(password), 'reader');
    // For the operators (a run of these is someone probing for accounts); the address is not logged.
    if (!created) req.log.info('registration for an email that has an account; nothing changed');
    res.status(202).json(REGISTRATION_ACCEPTED);
  });

  router.post('/api/v1/auth/login', async (req, res) => {
    const { email, password } = await parseBody(req, res, credentialsBody, 'public');
    // The client's address: the socket's peer, or X-Forwarded-For's when TRUST_PROXY names the balancer.
    const address = req.ip ?? 'unknown';
    refuseWhenThrottled(await admitLoginAttempt(sequelize, email, address), 'failed sign-ins');
    const found = await findUserCredentials(sequelize, email);
    // verifyPassword hashes against a dummy when there is no user, so both failures take as long.
    if (!(await verifyPassword(password, found?.passwordHash)) || !found) throw badCredentials();
    await forgiveLoginAttempt(sequelize, email, address);
    const session = await createSession(sequelize, found.user.id, config.SESSION_TTL_MINUTES);
    res.json({ token: session.token, expiresAt: session.expiresAt, user: found.user });
  });

  router.get('/api/v1/auth/me', requireAccount(sequelize), async (_req, res) => {
    const user = await findUser(sequelize, accountOf(res).userId);
    if (!user) throw unauthorized('the account no longer exists');
    res.json(user);
  });

  router.post('/api/v1/auth/logout', requireAccount(sequelize), async (_req, res) => {
    const { sessionToken } = accountOf(res);
    if (!sessionToken) throw HttpProblem.badRequest('sign out with the session token that login returned, not an API key');
    await deleteSession(sequelize, sessionToken);
    res.status(204).end();
  });

  return router;
}
