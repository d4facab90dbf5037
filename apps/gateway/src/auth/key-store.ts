import { QueryTypes, type Sequelize } from 'sequelize';
import { generateApiKey, hashApiKey } from './api-key';
import type { Role } from './permissions';

export interface KeyOwner {
  keyId: string;
  userId: string;
  role: Role;
}

/** The owner of a live key, or undefined for an unknown or revoked one. Counts the use. */
export async function findKeyOwner(sequelize: Sequelize, key: string): Promise<KeyOwner | undefined> {
  const [row] = await sequelize.query<{ key_id: string; user_id: string; role: Role }>(
    `UPDATE api_keys k SET last_used_at = now(), request_count = request_count + 1
       FROM users u
      WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND u.id = k.user_id
     RETURNING k.id AS key_id, u.id AS user_id, u.role`,
    { bind: [hashApiKey(key)], type: QueryTypes.SELECT },
  );
  return row && { keyId: row.key_id, userId: row.user_id, role: row.role };
}

/** Issues a key for a user and returns it in full; only its hash is kept. */
export async function issueKey(sequelize: Sequelize, userId: string, name: string): Promise<{ id: string; key: string }> {
  const fresh = generateApiKey();
  const [row] = await sequelize.query<{ id: string }>(
    'INSERT INTO api_keys (user_id, name, prefix, key_hash) VALUES ($1, $2, $3, $4) RETURNING id',
    { bind: [userId, name, fresh.prefix, fresh.hash], type: QueryTypes.SELECT },
  );
  return { id: row.id, key: fresh.key };
}
