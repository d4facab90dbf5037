import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import { HttpProblem } from '@libs/http-problems';
import { accountOf, requireAccount, unauthorized } from '../auth/authenticate';
import { credentialsBody } from '../auth/credentials';
import { admitLoginAttempt, admitRegistration, forgiveLoginAttempt, type ThrottleVerdict } from '../auth/login-throttle';
import { hashPassword, verifyPassword } from '../auth/password';
import { createSession, deleteSession } from '../auth/session-store';
import { findUser, findUserCredentials, registerUser } from '../auth/user-store';
import type { GatewayConfig } from '../config';
import { parseBody } from '../http/json-body';

// One answer for an unknown email and a wrong password, so that nobody can
// learn from it which emails have accounts.
const badCredentials = () => new HttpProblem(401, 'the email or password is wrong');

function refuseWhenThrottled(verdict: ThrottleVerdict, what: string): void {
  if (verdict.allowed) return;
  throw new HttpProblem(429, `too many ${what}; try again in ${verdict.retryAfterSeconds} s`, {
    headers: { 'Retry-After': String(verdict.retryAfterSeconds) },
  });
}

/** Sign-up, sign-in, sign-out and who am I. Register and login are public. */
export function authRoutes(config: GatewayConfig, sequelize: Sequelize): Router {
  const router = Router();

  router.post('/api/v1/auth/register', async (req, res) => {
    const { email, password } = await parseBody(req, res, credentialsBody, 'public');
    // Counted before the password is hashed: a refused registration costs no scrypt.
    refuseWhenThrottled(await admitRegistration(sequelize, req.ip ?? 'unknown'), 'registrations from this address');
    const created = await registerUser(sequelize, email, await hashPassword(password), 'reader');
    if (created === 'email-taken') throw new HttpProblem(409, `an account for ${email} exists already; sign in instead`);
    res.status(201).json(created);
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
