import type { Sequelize } from 'sequelize';
import type { Actor, CallContext } from '@libs/grpc';
import { requirePermission } from './house';

/**
 * The call's actor, who must hold `webhooks:manage`. Their role, as the gateway signed it for this call, is what
 * their endpoints receive by from now on: every call refreshes it (a demotion reaches this service with the next
 * call of the demoted user, or with identity events once they exist).
 */
export async function actingUser(sequelize: Sequelize, context: CallContext): Promise<Actor> {
  const actor = requirePermission(context, 'webhooks:manage');
  await sequelize.query(
    `INSERT INTO recipients (user_id, role) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET role = excluded.role, role_seen_at = now() WHERE recipients.role <> excluded.role`,
    { bind: [actor.userId, actor.role] },
  );
  return actor;
}
