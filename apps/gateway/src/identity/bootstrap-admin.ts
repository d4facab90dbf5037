import type { Sequelize } from 'sequelize';
import { BOOTSTRAP_ROLE } from '@libs/contracts';
import { GATEWAY_ACTOR } from '@libs/grpc';
import type { Logger } from '@libs/logging';
import type { GatewayConfig } from '../config';
import { passwordField } from './schemas';
import { hashPassword } from './password';
import { createUser } from './user-store';

/**
 * Creates the first admin from BOOTSTRAP_ADMIN_EMAIL / BOOTSTRAP_ADMIN_PASSWORD
 * when no account has that email; an existing account is left as it is.
 */
export async function bootstrapAdmin(config: GatewayConfig, sequelize: Sequelize, logger: Logger): Promise<void> {
  const email = config.BOOTSTRAP_ADMIN_EMAIL;
  if (email === undefined || config.BOOTSTRAP_ADMIN_PASSWORD === undefined) return;
  const password = passwordField.safeParse(config.BOOTSTRAP_ADMIN_PASSWORD);
  if (!password.success) {
    throw new Error(`BOOTSTRAP_ADMIN_PASSWORD ${password.error.issues[0].message} (its value is not shown)`);
  }
  const passwordHash = await hashPassword(password.data);
  // Created verified: whoever configures the gateway vouches for the address.
  const created = await sequelize.transaction((transaction) =>
    createUser(sequelize, transaction, { requestId: 'bootstrap-admin', actor: GATEWAY_ACTOR }, { email, passwordHash, role: BOOTSTRAP_ROLE, emailVerified: true }),
  );
  logger.info({ email }, created ? 'created the bootstrap admin' : 'bootstrap admin exists already; left unchanged');
}
