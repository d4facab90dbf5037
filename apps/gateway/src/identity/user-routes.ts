import type { Sequelize } from 'sequelize';
import { HttpProblem } from '@libs/http-problems';
import { signedIn, changeBy } from './access-guard';
import type { GatewayConfig } from '../config';
import { route, type Route } from '../platform/routing/operation';
import * as op from './identity-operations';
import { listLiveKeys } from './key-store';
import type { KeyVerifier } from './key-verifier';
import { roleLimitsFrom } from './limits/key-limits';
import { findUser, listUsers, setUserRole } from './user-store';

/** Admin only: list users, change a user's role, list a user's keys (to find one whose limits to set). */
export function userRoutes(config: GatewayConfig, sequelize: Sequelize, keys: KeyVerifier, afterCommit: () => void): Route[] {
  const roleLimits = roleLimitsFrom(config);
  return [
    route(op.listUsers, async ({ query: { limit, after } }, { res }) => {
      const users = await listUsers(sequelize, { after: after?.toLowerCase(), limit });
      // A full page may have a next one; `after` is a plain email, as admins see emails anyway.
      const next = users.length === limit ? users[users.length - 1].email : undefined;
      res.json({ users, ...(next ? { nextAfter: next } : {}) });
    }),

    route(op.setUserRole, async ({ path: { id }, body: { role } }, { res, caller }) => {
      const user = await setUserRole(sequelize, changeBy(res, signedIn(caller.account)), id, role);
      if (!user) throw HttpProblem.notFound('no user has that id');
      if (user === 'unverified') {
        throw new HttpProblem(
          409,
          `this account has not proved its email address, so it stays a reader: whoever registered it may not own the address. ` +
            `Its owner proves it with the link mailed at registration, or by resetting the password; then grant the ${role} role`,
        );
      }
      afterCommit();
      await keys.roleChanged(id);
      res.json(user);
    }),

    route(op.listUserKeys, async ({ path: { id } }, { res }) => {
      if (!(await findUser(sequelize, id))) throw HttpProblem.notFound('no user has that id');
      res.json({ keys: await listLiveKeys(sequelize, id, roleLimits) });
    }),
  ];
}
