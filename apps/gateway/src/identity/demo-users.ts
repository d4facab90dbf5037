import { QueryTypes, type Sequelize } from 'sequelize';
import { DEMO_USER_IDS, type Role, ROLES } from '@libs/contracts';
import { GATEWAY_ACTOR } from '@libs/grpc';
import { recordIdentityEvent, type ChangeContext } from './identity-events';
import { announceKeyEvent } from './key-events';
import { issueKey, revokeKeysOf } from './key-store';

const DEMO_KEY_NAME = 'demo';

export const demoEmail = (role: Role): string => `demo-${role}@example.invalid`;

/**
 * One demo user per role (created verified, with `user.registered` the first time), each with one fresh key.
 * Earlier demo keys are revoked, so only the keys printed by the latest `npm start` work. Every change goes to
 * identity.events like any other; the running gateway's relay publishes them.
 */
export async function issueDemoKeys(sequelize: Sequelize): Promise<Record<Role, string>> {
  const change: ChangeContext = { requestId: 'demo-keys', actor: GATEWAY_ACTOR };
  const keys = {} as Record<Role, string>;
  for (const role of ROLES) {
    const { revoked, key } = await sequelize.transaction(async (transaction) => {
      // xmax = 0: this statement inserted the row rather than updated it.
      const [user] = await sequelize.query<{ id: string; email: string; created_at: Date; inserted: boolean }>(
        `INSERT INTO users (id, email, role, email_verified) VALUES ($1, $2, $3, true)
         ON CONFLICT (email) DO UPDATE SET role = excluded.role, email_verified = true, updated_at = now()
         RETURNING id, email, created_at, (xmax = 0) AS inserted`,
        { bind: [DEMO_USER_IDS[role], demoEmail(role), role], type: QueryTypes.SELECT, transaction },
      );
      if (user.inserted) {
        await recordIdentityEvent(sequelize, transaction, change, {
          action: 'user.registered',
          entityType: 'user',
          after: { id: user.id, email: user.email, role, emailVerified: true, createdAt: new Date(user.created_at).toISOString() },
        });
      }
      return {
        revoked: await revokeKeysOf(sequelize, transaction, change, user.id, DEMO_KEY_NAME),
        key: (await issueKey(sequelize, change, user.id, DEMO_KEY_NAME, transaction)).key,
      };
    });
    // A running gateway may have the old demo keys cached: tell it they are gone.
    for (const keyHash of revoked) await announceKeyEvent(sequelize, { kind: 'key', keyHash });
    keys[role] = key;
  }
  return keys;
}
