import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import { z } from 'zod';
import { HttpProblem } from '@libs/http-problems';
import { accountOf, requireAccount } from '../auth/authenticate';
import { issueKeyWithinLimit, listLiveKeys, MAX_LIVE_KEYS, revokeKey } from '../auth/key-store';
import { keyVerifierOf } from '../auth/key-verifier';
import { parseBody } from '../http/json-body';
import { uuidParam } from '../http/path-params';

const newKeyBody = z
  .object({ name: z.string({ message: 'must be a string' }).trim().max(100, { message: 'must be at most 100 characters' }).optional() })
  .strict();


/** A user's own API keys: list, create (shown once), revoke. */
export function authKeyRoutes(sequelize: Sequelize): Router {
  const router = Router();
  const base = '/api/v1/auth/keys';

  router.get(base, requireAccount(sequelize), async (_req, res) => {
    res.json({ keys: await listLiveKeys(sequelize, accountOf(res).userId) });
  });

  router.post(base, requireAccount(sequelize), async (req, res) => {
    const body = await parseBody(req, res, newKeyBody);
    const issued = await issueKeyWithinLimit(sequelize, accountOf(res).userId, body.name ?? '');
    if (issued === 'limit-reached') {
      throw new HttpProblem(409, `an account may hold at most ${MAX_LIVE_KEYS} live keys; revoke one first`);
    }
    res.status(201).location(`${base}/${issued.id}`).json(issued);
  });

  router.delete(`${base}/:id`, requireAccount(sequelize), async (req, res) => {
    const id = uuidParam(req, 'id', 'a key id');
    const keyHash = await revokeKey(sequelize, accountOf(res).userId, id);
    // Another user's key is "not found" too: nobody learns which ids exist.
    if (!keyHash) throw HttpProblem.notFound(`you have no key with id ${id}`);
    await keyVerifierOf(sequelize).keyRevoked(keyHash);
    res.status(204).end();
  });

  return router;
}
