import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import { z } from 'zod';
import { HttpProblem } from '@libs/http-problems';
import { accountOf, requireAccount } from '../auth/authenticate';
import { LIMIT_MAX, LIMIT_NAMES, roleLimitsFrom } from '../auth/key-limits';
import {
  issueKeyWithinLimit,
  listLiveKeys,
  MAX_KEYS_CREATED_PER_DAY,
  MAX_LIVE_KEYS,
  revokeKey,
  setKeyLimits,
  type KeyRefusal,
} from '../auth/key-store';
import { keyVerifierOf } from '../auth/key-verifier';
import type { GatewayConfig } from '../config';
import { parseBody } from '../http/json-body';
import { uuidParam } from '../http/path-params';

const newKeyBody = z
  .object({ name: z.string({ message: 'must be a string' }).trim().max(100, { message: 'must be at most 100 characters' }).optional() })
  .strict();

/** A limit an admin sets for one key, or null for the role's default again. */
const limitValue = (max: number) =>
  z
    .number({ message: 'must be a whole number, or null for the role default' })
    .int({ message: 'must be a whole number' })
    .min(1, { message: 'must be at least 1' })
    .max(max, { message: `must be at most ${max}` })
    .nullable()
    .optional();

const limitsBody = z
  .object({
    rateLimit: limitValue(LIMIT_MAX.rateLimit),
    dailyQuota: limitValue(LIMIT_MAX.dailyQuota),
    concurrencyLimit: limitValue(LIMIT_MAX.concurrencyLimit),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: `name at least one of ${LIMIT_NAMES.join(', ')}` });

/** A user's own API keys: list (with their limits), create (shown once), revoke; admins set one key's limits. */
function keyRefused(refusal: KeyRefusal): HttpProblem {
  if (refusal.reason === 'live-keys') {
    return new HttpProblem(409, `an account may hold at most ${MAX_LIVE_KEYS} live keys; revoke one first`);
  }
  return new HttpProblem(
    429,
    `an account may create at most ${MAX_KEYS_CREATED_PER_DAY} keys in 24 hours, revoked ones included; ` +
      `try again in ${refusal.retryAfterSeconds} s`,
    { headers: { 'Retry-After': String(refusal.retryAfterSeconds) } },
  );
}

export function authKeyRoutes(config: GatewayConfig, sequelize: Sequelize): Router {
  const router = Router();
  const roleLimits = roleLimitsFrom(config);
  const base = '/api/v1/auth/keys';

  router.get(base, requireAccount(sequelize), async (_req, res) => {
    res.json({ keys: await listLiveKeys(sequelize, accountOf(res).userId, roleLimits) });
  });

  router.post(base, requireAccount(sequelize), async (req, res) => {
    const body = await parseBody(req, res, newKeyBody);
    const issued = await issueKeyWithinLimit(sequelize, accountOf(res).userId, body.name ?? '');
    if ('reason' in issued) throw keyRefused(issued);
    res.status(201).location(`${base}/${issued.id}`).json(issued);
  });

  router.patch(`${base}/:id`, requireAccount(sequelize, 'users:manage'), async (req, res) => {
    const id = uuidParam(req, 'id', 'a key id');
    const changes = await parseBody(req, res, limitsBody);
    const changed = await setKeyLimits(sequelize, id, changes, roleLimits);
    if (!changed) throw HttpProblem.notFound(`no live key with id ${id}`);
    await keyVerifierOf(sequelize).limitsChanged(changed.keyHash);
    res.json(changed.key);
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
