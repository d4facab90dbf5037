import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import { z } from 'zod';
import { HttpProblem } from '@libs/http-problems';
import { requireAccount } from '../auth/authenticate';
import { emailField } from '../auth/credentials';
import { roleLimitsFrom } from '../auth/key-limits';
import { listLiveKeys } from '../auth/key-store';
import { keyVerifierOf } from '../auth/key-verifier';
import { ROLES } from '../auth/permissions';
import { findUser, listUsers, setUserRole } from '../auth/user-store';
import type { GatewayConfig } from '../config';
import { parseBody } from '../http/json-body';
import { uuidParam } from '../http/path-params';
import { QueryParams } from '../http/query-params';

const roleBody = z.object({ role: z.enum(ROLES, { message: `must be one of ${ROLES.join(', ')}` }) }).strict();

/** Admin only: list users, change a user's role, list a user's keys (to find one whose limits to set). */
export function authUserRoutes(config: GatewayConfig, sequelize: Sequelize): Router {
  const router = Router();
  const roleLimits = roleLimitsFrom(config);
  const base = '/api/v1/auth/users';

  router.get(base, requireAccount(sequelize, 'users:manage'), async (req, res) => {
    const query = new QueryParams(req);
    const limit = query.integer('limit', 100, 1, 500);
    const afterRaw = query.string('after', { max: 254 });
    const after = afterRaw === undefined ? undefined : emailField.safeParse(afterRaw);
    if (after && !after.success) throw HttpProblem.invalidParameter('after', 'must be the last email of the previous page');
    const users = await listUsers(sequelize, { after: after?.data, limit });
    // A full page may have a next one; `after` is a plain email, as admins see emails anyway.
    const next = users.length === limit ? users[users.length - 1].email : undefined;
    res.json({ users, ...(next ? { nextAfter: next } : {}) });
  });

  router.patch(`${base}/:id`, requireAccount(sequelize, 'users:manage'), async (req, res) => {
    const id = uuidParam(req, 'id', 'a user id');
    const { role } = await parseBody(req, res, roleBody);
    const user = await setUserRole(sequelize, id, role);
    if (!user) throw HttpProblem.notFound(`no user with id ${id}`);
    await keyVerifierOf(sequelize).roleChanged(id);
    res.json(user);
  });

  router.get(`${base}/:id/keys`, requireAccount(sequelize, 'users:manage'), async (req, res) => {
    const id = uuidParam(req, 'id', 'a user id');
    if (!(await findUser(sequelize, id))) throw HttpProblem.notFound(`no user with id ${id}`);
    res.json({ keys: await listLiveKeys(sequelize, id, roleLimits) });
  });

  return router;
}
