import type { Sequelize } from 'sequelize';
import { HttpProblem } from '@libs/http-problems';
import { route, type Route } from '../platform/routing/operation';
import { changeBy, changeByGateway, requireSession, signedIn } from './access-guard';
import { refuseWhenThrottled } from './account-routes';
import { TOKEN_LIFETIME_MINUTES, tokenIsLive, useToken } from './account-tokens';
import * as op from './identity-operations';
import type { KeyVerifier } from './key-verifier';
import { revokeKeysOf } from './key-store';
import { admitLoginAttempt, admitResetRequest, forgiveLoginAttempt } from './login-throttle';
import { hashPassword, verifyPassword } from './password';
import { storeResetRequest } from './password-reset-requests';
import { revokeSessions } from './session-store';
import { findUser, findUserCredentials, markEmailVerified, setPassword } from './user-store';

/** What a reset request answers, whether or not the email has an account: it must not tell which do. */
export const RESET_ACCEPTED = {
  status: 'accepted',
  detail: `If this email has an account, a link to set a new password is on its way to it (good once, for ${TOKEN_LIFETIME_MINUTES.password_reset} minutes).`,
} as const;

const badToken = () => HttpProblem.invalidParameter('token', 'is unknown, used or expired; ask for a new link');

/**
 * What a mailed link proves (verify-email, password reset) and what a signed-in owner does to their sign-in
 * (change password, sign out everywhere). Each change is one transaction with its identity.events.
 */
export function passwordRoutes(sequelize: Sequelize, keys: KeyVerifier, afterCommit: () => void): Route[] {
  return [
    route(op.verifyEmail, async ({ body: { token } }, { res }) => {
      const verified = await sequelize.transaction(async (transaction) => {
        const userId = await useToken(sequelize, transaction, token, 'verify_email');
        if (userId) await markEmailVerified(sequelize, transaction, changeByGateway(res), userId);
        return userId !== undefined;
      });
      if (!verified) throw badToken();
      afterCommit();
      res.status(204).end();
    }),

    route(op.requestPasswordReset, async ({ body: { email } }, { req, res }) => {
      refuseWhenThrottled(await admitResetRequest(sequelize, req.ip ?? 'unknown'), 'password reset requests from this address');
      // The same one insert whether or not the email has an account; the relay looks it up later
      // (password-reset-requests.ts), so the answer's time tells nobody which emails do.
      await storeResetRequest(sequelize, email);
      afterCommit();
      res.status(202).json(RESET_ACCEPTED);
    }),

    route(op.confirmPasswordReset, async ({ body: { token, password } }, { res }) => {
      // Looked at before the hash, so that made-up tokens cost no scrypt; used only in the transaction below.
      if (!(await tokenIsLive(sequelize, token, 'password_reset'))) throw badToken();
      const passwordHash = await hashPassword(password);
      const change = changeByGateway(res);
      const revokedKeys = await sequelize.transaction(async (transaction) => {
        const userId = await useToken(sequelize, transaction, token, 'password_reset');
        if (!userId) return undefined;
        const user = await findUser(sequelize, userId, transaction, true);
        if (!user) return undefined;
        await setPassword(sequelize, transaction, change, userId, passwordHash, 'reset');
        await revokeSessions(sequelize, transaction, change, user);
        // The mail reached the address's owner: it is proved now. Keys made before that were made by whoever
        // registered, who may not own the address (a squatter): they go.
        if (!(await markEmailVerified(sequelize, transaction, change, userId))) return [];
        return revokeKeysOf(sequelize, transaction, change, userId);
      });
      if (!revokedKeys) throw badToken();
      afterCommit();
      for (const keyHash of revokedKeys) await keys.keyRevoked(keyHash);
      res.status(204).end();
    }),

    route(op.changePassword, async ({ body }, { req, res, caller }) => {
      const account = signedIn(caller.account);
      const session = requireSession(account, 'change the password');
      const user = await findUser(sequelize, account.userId);
      if (!user) throw HttpProblem.notFound('the account no longer exists');
      const address = req.ip ?? 'unknown';
      refuseWhenThrottled(await admitLoginAttempt(sequelize, user.email, address), 'failed sign-ins');
      const found = await findUserCredentials(sequelize, user.email);
      if (!(await verifyPassword(body.current, found?.passwordHash))) throw new HttpProblem(403, 'the current password is wrong');
      await forgiveLoginAttempt(sequelize, user.email, address);
      const passwordHash = await hashPassword(body.new);
      await sequelize.transaction(async (transaction) => {
        await setPassword(sequelize, transaction, changeBy(res, account), user.id, passwordHash, 'change');
        await revokeSessions(sequelize, transaction, changeBy(res, account), user, session);
      });
      afterCommit();
      res.status(204).end();
    }),

    route(op.revokeAllSessions, async (_input, { res, caller }) => {
      const account = signedIn(caller.account);
      requireSession(account, 'sign out everywhere');
      const user = await findUser(sequelize, account.userId);
      if (!user) throw HttpProblem.notFound('the account no longer exists');
      await sequelize.transaction((transaction) => revokeSessions(sequelize, transaction, changeBy(res, account), user));
      afterCommit();
      res.status(204).end();
    }),
  ];
}
