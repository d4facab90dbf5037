import type { Sequelize } from 'sequelize';
import type { GatewayConfig } from '../config';
import { declaredIn } from '../platform/routing/area';
import { accountRoutes } from './account-routes';
import * as op from './identity-operations';
import { keyRoutes } from './key-routes';
import { passwordRoutes } from './password-routes';
import type { KeyVerifier } from './key-verifier';
import { userRoutes } from './user-routes';

interface IdentityDependencies {
  config: GatewayConfig;
  sequelize: Sequelize;
  /** Verifies API keys and holds their limits: one per process, started before the app is built. */
  keys: KeyVerifier;
  /** Called after a commit that wrote identity.events or an account mail: wakes their relays. */
  afterIdentityCommit: () => void;
}

/** Accounts, sign-in, API keys and the roles of users (docs/IDENTITY.md). */
export const identityArea = declaredIn(op, ({ config, sequelize, keys, afterIdentityCommit }: IdentityDependencies) => [
  ...accountRoutes(config, sequelize, afterIdentityCommit),
  ...passwordRoutes(sequelize, keys, afterIdentityCommit),
  ...keyRoutes(config, sequelize, keys, afterIdentityCommit),
  ...userRoutes(config, sequelize, keys, afterIdentityCommit),
]);
