import { QueryTypes, type Sequelize } from 'sequelize';
import { DEMO_USER_IDS, type Role, ROLES } from '@libs/contracts';
import { announceKeyEvent } from './key-events';
import { issueKey } from './key-store';

const DEMO_KEY_NAME = 'demo';

export const demoEmail = (role: Role): string => `demo-${role}@example.invalid`;

/**
 * One demo user per role, each with one fresh key. Earlier demo keys are
 * revoked, so only the keys printed by the latest `npm start` work.
 */
export async function issueDemoKeys(sequelize: Sequelize): Promise<Record<Role, string>> {
  const keys = {} as Record<Role, string>;
  for (const role of ROLES) {
    const [user] = await sequelize.query<{ id: string }>(
      `INSERT INTO users (id, email, role) VALUES ($1, $2, $3)
       ON CONFLICT (email) DO UPDATE SET role = excluded.role, updated_at = now() RETURNING id`,
      { bind: [DEMO_USER_IDS[role], demoEmail(role), role], type: QueryTypes.SELECT },
    );
    const revoked = await sequelize.query<{ key_hash: string }>(
      'UPDATE api_keys SET revoked_at = now() WHERE user_id = $1 AND name = $2 AND revoked_at IS NULL RETURNING key_hash',
      { bind: [user.id, DEMO_KEY_NAME], type: QueryTypes.SELECT },
    );
    // A running gateway may have the old demo keys cached: tell it they are gone.
    for (const { key_hash: keyHash } of revoked) await announceKeyEvent(sequelize, { kind: 'key', keyHash });
    keys[role] = (await issueKey(sequelize, user.id, DEMO_KEY_NAME)).key;
  }
  return keys;
}
