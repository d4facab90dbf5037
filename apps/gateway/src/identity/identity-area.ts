import type { Sequelize } from 'sequelize';
import type { GatewayConfig } from '../config';
import { declaredIn } from '../platform/routing/area';
import { accountRoutes } from './account-routes';
import * as op from './identity-operations';
import { keyRoutes } from './key-routes';
import type { KeyVerifier } from './key-verifier';
import { userRoutes } from './user-routes';

interface IdentityDependencies {
  config: GatewayConfig;
  sequelize: Sequelize;
  /** Verifies API keys and holds their limits: one per process, started before the app is built. */
  keys: KeyVerifier;
}

/** Accounts, sign-in, API keys and the roles of users (docs/IDENTITY.md). */
export const identityArea = declaredIn(op, ({ config, sequelize, keys }: IdentityDependencies) => [
  ...accountRoutes(config, sequelize),
  ...keyRoutes(config, sequelize, keys),
  ...userRoutes(config, sequelize, keys),
]);
