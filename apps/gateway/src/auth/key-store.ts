import type { Sequelize, Transaction } from 'sequelize';
import { QueryTypes } from 'sequelize';
import { generateApiKey } from './api-key';
import type { Role } from './permissions';

export interface KeyOwner {
  keyId: string;
  userId: string;
  role: Role;
}

/** What a key's owner may see of it: never the key or its hash. */
export interface KeySummary {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  requestCount: number;
}

/** A user may hold this many live keys; more is almost always a leak in the making. */
export const MAX_LIVE_KEYS = 20;

const KEY_COLUMNS = 'id, name, prefix, created_at, last_used_at, request_count';

interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  request_count: string;
}

const toSummary = (row: KeyRow): KeySummary => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  createdAt: new Date(row.created_at).toISOString(),
  lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
  requestCount: Number(row.request_count),
});

/** The owner of a live key, found by the key's hash; undefined for an unknown or revoked one. */
export async function findKeyOwner(sequelize: Sequelize, keyHash: string): Promise<KeyOwner | undefined> {
  const [row] = await sequelize.query<{ key_id: string; user_id: string; role: Role }>(
    `SELECT k.id AS key_id, u.id AS user_id, u.role
       FROM api_keys k JOIN users u ON u.id = k.user_id
      WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
    { bind: [keyHash], type: QueryTypes.SELECT },
  );
  return row && { keyId: row.key_id, userId: row.user_id, role: row.role };
}

/** Issues a key for a user and returns it in full, once; only its hash is kept. */
export async function issueKey(
  sequelize: Sequelize,
  userId: string,
  name: string,
  transaction?: Transaction,
): Promise<KeySummary & { key: string }> {
  const fresh = generateApiKey();
  const [row] = await sequelize.query<KeyRow>(
    `INSERT INTO api_keys (user_id, name, prefix, key_hash) VALUES ($1, $2, $3, $4) RETURNING ${KEY_COLUMNS}`,
    { bind: [userId, name, fresh.prefix, fresh.hash], type: QueryTypes.SELECT, transaction },
  );
  return { ...toSummary(row), key: fresh.key };
}

/** Issues a key unless the user already holds MAX_LIVE_KEYS; the count and insert are one transaction under a row lock. */
export async function issueKeyWithinLimit(
  sequelize: Sequelize,
  userId: string,
  name: string,
): Promise<(KeySummary & { key: string }) | 'limit-reached'> {
  return sequelize.transaction(async (transaction) => {
    await sequelize.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', { bind: [userId], transaction });
    const [{ live }] = await sequelize.query<{ live: string }>(
      'SELECT count(*) AS live FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL',
      { bind: [userId], type: QueryTypes.SELECT, transaction },
    );
    if (Number(live) >= MAX_LIVE_KEYS) return 'limit-reached';
    return issueKey(sequelize, userId, name, transaction);
  });
}

export async function listLiveKeys(sequelize: Sequelize, userId: string): Promise<KeySummary[]> {
  const rows = await sequelize.query<KeyRow>(
    `SELECT ${KEY_COLUMNS} FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL ORDER BY created_at DESC, id`,
    { bind: [userId], type: QueryTypes.SELECT },
  );
  return rows.map(toSummary);
}

/**
 * Revokes one of the user's keys. Returns the revoked key's hash (so that the
 * caller can drop it from its cache at once), or undefined when the user has
 * no such key. Revoking a revoked key again changes nothing and succeeds.
 */
export async function revokeKey(sequelize: Sequelize, userId: string, keyId: string): Promise<string | undefined> {
  const [row] = await sequelize.query<{ key_hash: string }>(
    `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
      WHERE id = $1 AND user_id = $2 RETURNING key_hash`,
    { bind: [keyId, userId], type: QueryTypes.SELECT },
  );
  return row?.key_hash;
}

/** Adds counted uses to many keys in one statement; last_used_at only moves forward. */
export async function addKeyUsage(
  sequelize: Sequelize,
  usage: { keyId: string; requests: number; lastUsedAt: Date }[],
): Promise<void> {
  if (usage.length === 0) return;
  await sequelize.query(
    `UPDATE api_keys k
        SET request_count = k.request_count + u.requests,
            last_used_at = GREATEST(k.last_used_at, u.last_used_at)
       FROM unnest($1::uuid[], $2::bigint[], $3::timestamptz[]) AS u (id, requests, last_used_at)
      WHERE k.id = u.id`,
    {
      bind: [
        usage.map((u) => u.keyId),
        usage.map((u) => u.requests),
        usage.map((u) => u.lastUsedAt.toISOString()),
      ],
    },
  );
}
