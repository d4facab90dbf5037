import type { Sequelize } from 'sequelize';
import { SIGN_UP_ROLE } from '@libs/contracts';
import { HttpProblem } from '@libs/http-problems';
import type { GatewayConfig } from '../config';
import { unauthorized } from '../platform/http/unauthorized';
import { route, type Route } from '../platform/routing/operation';
import { changeByGateway, signedIn } from './access-guard';
import { storeAccountMail } from './account-mails';
import { issueToken } from './account-tokens';
import * as op from './identity-operations';
import { admitLoginAttempt, admitRegistration, forgiveLoginAttempt, type ThrottleVerdict } from './login-throttle';
import { hashPassword, needsRehash, verifyPassword } from './password';
import { createSession, deleteSession } from './session-store';
import { createUser, findUser, findUserCredentials, replacePasswordHash } from './user-store';

// One answer for an unknown email and a wrong password, so that nobody can
// learn from it which emails have accounts. Like every 401, it names the
// scheme of the tokens that sign-in issues.
const badCredentials = () => unauthorized('the email or password is wrong');

export function refuseWhenThrottled(verdict: ThrottleVerdict, what: string): void {
  if (verdict.allowed) return;
  throw new HttpProblem(429, `too many ${what}; try again in ${verdict.retryAfterSeconds} s`, {
    headers: { 'Retry-After': String(verdict.retryAfterSeconds) },
  });
}

/**
 * What registration answers, whether it created the account or the email had
 * one already: the answer must not tell anyone which emails have accounts
 * (docs/IDENTITY.md). The owner of the address verifies it from the mail and signs in.
 */
export const REGISTRATION_ACCEPTED = {
  status: 'accepted',
  detail:
    'If this email had no account, it has one now, and a link that proves the address is on its way to it ' +
    '(POST /api/v1/auth/verify-email); sign in with this email and password (POST /api/v1/auth/login). ' +
    'An email that has an account already keeps it unchanged, and its owner, once they have proved the address, is told of this attempt.',
} as const;

/** Sign-up, sign-in, sign-out and who am I. Register and login are public. */
export function accountRoutes(config: GatewayConfig, sequelize: Sequelize, afterCommit: () => void): Route[] {
  return [
    route(op.register, async ({ body: { email, password } }, { req, res }) => {
      // Counted before the password is hashed: a refused registration costs no scrypt.
      refuseWhenThrottled(await admitRegistration(sequelize, req.ip ?? 'unknown'), 'registrations from this address');
      const passwordHash = await hashPassword(password);
      // The same work (a hash, one transaction storing one mail) and the same answer either way. The mail is
      // stored with the account, so that an acknowledged registration never loses it (account-mails.ts).
      const created = await sequelize.transaction(async (transaction) => {
        const user = await createUser(sequelize, transaction, changeByGateway(res), { email, passwordHash, role: SIGN_UP_ROLE, emailVerified: false });
        if (user) {
          const { id, token } = await issueToken(sequelize, transaction, user.id, 'verify_email');
          await storeAccountMail(sequelize, transaction, { id, template: 'verify_email', email, userId: user.id, linkToken: token });
          return true;
        }
        const owner = await findUserCredentials(sequelize, email, transaction);
        if (owner) await storeAccountMail(sequelize, transaction, { template: 'registration_attempt', email, userId: owner.user.id });
        return false;
      });
      afterCommit();
      // For the operators (a run of these is someone probing for accounts); the address is not logged.
      if (!created) req.log.info('registration for an email that has an account; its owner is told');
      res.status(202).json(REGISTRATION_ACCEPTED);
    }),

    route(op.login, async ({ body: { email, password } }, { req, res }) => {
      // The client's address: the socket's peer, or X-Forwarded-For's when TRUST_PROXY names the balancer.
      const address = req.ip ?? 'unknown';
      refuseWhenThrottled(await admitLoginAttempt(sequelize, email, address), 'failed sign-ins');
      const found = await findUserCredentials(sequelize, email);
      // verifyPassword hashes against a dummy when there is no user, so both failures take as long.
      if (!(await verifyPassword(password, found?.passwordHash)) || !found) throw badCredentials();
      await forgiveLoginAttempt(sequelize, email, address);
      // A hash of earlier parameters is made again with today's, while the password is at hand: until then a
      // wrong password for that account costs the earlier parameters' time, not the dummy's (docs/IDENTITY.md).
      // The sign-in does not depend on it: a refusal (every hash slot taken) leaves it for the next one.
      if (found.passwordHash && needsRehash(found.passwordHash)) {
        try {
          await replacePasswordHash(sequelize, found.user.id, found.passwordHash, await hashPassword(password));
        } catch (error) {
          req.log.warn({ err: error }, 'the password hash was not renewed; it will be at the next sign-in');
        }
      }
      const session = await createSession(sequelize, found.user.id, config.SESSION_TTL_MINUTES);
      res.json({ token: session.token, expiresAt: session.expiresAt, user: found.user });
    }),

    route(op.me, async (_input, { res, caller }) => {
      const user = await findUser(sequelize, signedIn(caller.account).userId);
      if (!user) throw unauthorized('the account no longer exists');
      res.json(user);
    }),

    route(op.logout, async (_input, { res, caller }) => {
      const { sessionToken } = signedIn(caller.account);
      if (!sessionToken) throw HttpProblem.badRequest('sign out with the session token that login returned, not an API key');
      await deleteSession(sequelize, sessionToken);
      res.status(204).end();
    }),
  ];
}

