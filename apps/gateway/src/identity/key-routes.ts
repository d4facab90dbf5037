import type { Sequelize } from 'sequelize';
import { IDENTITY_LIMITS } from '@libs/contracts';
import { HttpProblem } from '@libs/http-problems';
import type { GatewayConfig } from '../config';
import { route, type Route } from '../platform/routing/operation';
import { changeBy, requireSession, signedIn } from './access-guard';
import * as op from './identity-operations';
import { issueKeyWithinLimit, listLiveKeys, revokeKey, setKeyLimits, type KeyRefusal } from './key-store';
import type { KeyVerifier } from './key-verifier';
import { roleLimitsFrom } from './limits/key-limits';

/** A user's own API keys: list (with their limits), create (shown once), revoke; admins set one key's limits. */
function keyRefused(refusal: KeyRefusal): HttpProblem {
  if (refusal.reason === 'live-keys') {
    return new HttpProblem(409, `an account may hold at most ${IDENTITY_LIMITS.liveKeys} live keys; revoke one first`);
  }
  return new HttpProblem(
    429,
    `an account may create at most ${IDENTITY_LIMITS.keysCreatedPerDay} keys in 24 hours, revoked ones included; ` +
      `try again in ${refusal.retryAfterSeconds} s`,
    { headers: { 'Retry-After': String(refusal.retryAfterSeconds) } },
  );
}

export function keyRoutes(config: GatewayConfig, sequelize: Sequelize, keys: KeyVerifier, afterCommit: () => void): Route[] {
  const roleLimits = roleLimitsFrom(config);
  return [
    route(op.listKeys, async (_input, { res, caller }) => {
      res.json({ keys: await listLiveKeys(sequelize, signedIn(caller.account).userId, roleLimits) });
    }),

    route(op.createKey, async ({ body }, { res, caller }) => {
      const account = signedIn(caller.account);
      requireSession(account, 'create keys');
      const issued = await issueKeyWithinLimit(sequelize, changeBy(res, account), account.userId, body.name ?? '');
      if ('reason' in issued) throw keyRefused(issued);
      afterCommit();
      res.status(201).location(`${op.createKey.path}/${issued.id}`).json(issued);
    }),

    route(op.setKeyLimits, async ({ path: { id }, body }, { res, caller }) => {
      const changed = await setKeyLimits(sequelize, changeBy(res, signedIn(caller.account)), id, body, roleLimits);
      if (!changed) throw HttpProblem.notFound('no live key has that id');
      afterCommit();
      await keys.limitsChanged(changed.keyHash);
      res.json(changed.key);
    }),

    route(op.revokeKey, async ({ path: { id } }, { res, caller }) => {
      const account = signedIn(caller.account);
      requireSession(account, 'revoke keys');
      const keyHash = await revokeKey(sequelize, changeBy(res, account), account.userId, id);
      // Another user's key is "not found" too: nobody learns which ids exist.
      if (!keyHash) throw HttpProblem.notFound('you have no key with that id');
      afterCommit();
      await keys.keyRevoked(keyHash);
      res.status(204).end();
    }),
  ];
}
