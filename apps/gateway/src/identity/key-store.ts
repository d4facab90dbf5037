import type { Sequelize, Transaction } from 'sequelize';
import { QueryTypes } from 'sequelize';
import { generateApiKey } from './api-key';
import { effectiveLimits, type CustomLimits, type KeyLimits, type RoleLimits } from './limits/key-limits';
import { IDENTITY_LIMITS, type Role } from '@libs/contracts';
import { recordIdentityEvent, type ChangeContext } from './identity-events';
import { SHARED_USAGE_COLUMNS, sharedUsageOf, type SharedUsageColumns } from './limits/key-usage-store';
import type { SharedUsage } from './limits/rate-limiter';

export interface KeyOwner {
  keyId: string;
  userId: string;
  role: Role;
  /** The key's limits: its own where an admin set them, its role's otherwise. */
  limits: KeyLimits;
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

/** A key as its owner and admins list it: with the limits it is under, and which of them an admin set. */
export interface ListedKey extends KeySummary {
  limits: KeyLimits;
  customLimits: CustomLimits;
}

const KEY_FIELDS = ['id', 'name', 'prefix', 'created_at', 'last_used_at', 'request_count'];
const KEY_COLUMNS = KEY_FIELDS.join(', ');

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

interface CustomLimitColumns {
  rate_limit: number | null;
  daily_quota: number | null;
  concurrency_limit: number | null;
}

const CUSTOM_LIMIT_FIELDS = ['rate_limit', 'daily_quota', 'concurrency_limit'];

const customLimitsOf = (row: CustomLimitColumns): CustomLimits => ({
  ...(row.rate_limit !== null ? { rateLimit: row.rate_limit } : {}),
  ...(row.daily_quota !== null ? { dailyQuota: row.daily_quota } : {}),
  ...(row.concurrency_limit !== null ? { concurrencyLimit: row.concurrency_limit } : {}),
});

/**
 * The owner of a live key, found by the key's hash, with the key's limits and
 * the limiter's shared counts as they are now; undefined for an unknown or
 * revoked key.
 */
export async function findKeyOwner(
  sequelize: Sequelize,
  keyHash: string,
  roleLimits: RoleLimits,
): Promise<{ owner: KeyOwner; usage: SharedUsage } | undefined> {
  type OwnerRow = { key_id: string; user_id: string; role: Role } & CustomLimitColumns & SharedUsageColumns;
  const [row] = await sequelize.query<OwnerRow>(
    `SELECT k.id AS key_id, u.id AS user_id, u.role, ${CUSTOM_LIMIT_FIELDS.join(', ')}, ${SHARED_USAGE_COLUMNS}
       FROM api_keys k JOIN users u ON u.id = k.user_id
      WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
    { bind: [keyHash], type: QueryTypes.SELECT },
  );
  if (!row) return undefined;
  return {
    owner: { keyId: row.key_id, userId: row.user_id, role: row.role, limits: effectiveLimits(roleLimits[row.role], customLimitsOf(row)) },
    usage: sharedUsageOf(row),
  };
}

/** Issues a key for a user and records `key.created` (without the key); the key is returned in full, once, and only its hash kept. */
export async function issueKey(
  sequelize: Sequelize,
  change: ChangeContext,
  userId: string,
  name: string,
  transaction: Transaction,
): Promise<KeySummary & { key: string }> {
  const fresh = generateApiKey();
  const [row] = await sequelize.query<KeyRow>(
    `INSERT INTO api_keys (user_id, name, prefix, key_hash) VALUES ($1, $2, $3, $4) RETURNING ${KEY_COLUMNS}`,
    { bind: [userId, name, fresh.prefix, fresh.hash], type: QueryTypes.SELECT, transaction },
  );
  const summary = toSummary(row);
  await recordIdentityEvent(sequelize, transaction, change, {
    action: 'key.created',
    entityType: 'api_key',
    after: { id: summary.id, ownerId: userId, name: summary.name, createdAt: summary.createdAt },
  });
  return { ...summary, key: fresh.key };
}

/** Why a key was not issued; after `created-today`, the seconds until one more may be created. */
export type KeyRefusal = { reason: 'live-keys' } | { reason: 'created-today'; retryAfterSeconds: number };

/**
 * Issues a key unless the user holds as many live keys as it may, or created as many as it may in the last 24
 * hours (IDENTITY_LIMITS); the counts and the insert are one transaction under a row lock on the user.
 */
export async function issueKeyWithinLimit(
  sequelize: Sequelize,
  change: ChangeContext,
  userId: string,
  name: string,
): Promise<(KeySummary & { key: string }) | KeyRefusal> {
  return sequelize.transaction(async (transaction) => {
    await sequelize.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', { bind: [userId], transaction });
    // The oldest key of the window is the one whose 24th hour frees a place.
    const [counts] = await sequelize.query<{ live: string; recent: string; retry_after: string | null }>(
      `SELECT count(*) FILTER (WHERE revoked_at IS NULL) AS live,
              count(*) FILTER (WHERE created_at > now() - interval '24 hours') AS recent,
              ceil(extract(epoch FROM min(created_at) FILTER (WHERE created_at > now() - interval '24 hours')
                                      + interval '24 hours' - now())) AS retry_after
         FROM api_keys WHERE user_id = $1`,
      { bind: [userId], type: QueryTypes.SELECT, transaction },
    );
    if (Number(counts.live) >= IDENTITY_LIMITS.liveKeys) return { reason: 'live-keys' };
    if (Number(counts.recent) >= IDENTITY_LIMITS.keysCreatedPerDay) {
      return { reason: 'created-today', retryAfterSeconds: Math.max(1, Number(counts.retry_after)) };
    }
    return issueKey(sequelize, change, userId, name, transaction);
  });
}

type ListedKeyRow = KeyRow & CustomLimitColumns & { role: Role };

/** For statements that join the key (k) to its user (u), whose role gives the default limits. */
const LISTED_KEY_COLUMNS = [...KEY_FIELDS, ...CUSTOM_LIMIT_FIELDS].map((field) => `k.${field}`).concat('u.role').join(', ');

const toListedKey = (row: ListedKeyRow, roleLimits: RoleLimits): ListedKey => {
  const customLimits = customLimitsOf(row);
  return { ...toSummary(row), limits: effectiveLimits(roleLimits[row.role], customLimits), customLimits };
};

/** A user's live keys, newest first, with their limits. */
export async function listLiveKeys(sequelize: Sequelize, userId: string, roleLimits: RoleLimits): Promise<ListedKey[]> {
  const rows = await sequelize.query<ListedKeyRow>(
    `SELECT ${LISTED_KEY_COLUMNS} FROM api_keys k JOIN users u ON u.id = k.user_id
      WHERE k.user_id = $1 AND k.revoked_at IS NULL ORDER BY k.created_at DESC, k.id`,
    { bind: [userId], type: QueryTypes.SELECT },
  );
  return rows.map((row) => toListedKey(row, roleLimits));
}

/**
 * Sets or clears (null) the custom limits of a live key; limits not named stay as they are; records
 * `key.limits_changed`. Returns the key as listed and its hash (so that every instance can be told to read it
 * again), or undefined when there is no such live key.
 */
export async function setKeyLimits(
  sequelize: Sequelize,
  change: ChangeContext,
  keyId: string,
  changes: { [L in keyof KeyLimits]?: number | null },
  roleLimits: RoleLimits,
): Promise<{ key: ListedKey; keyHash: string } | undefined> {
  return sequelize.transaction(async (transaction) => {
    const [before] = await sequelize.query<CustomLimitColumns & { user_id: string }>(
      `SELECT user_id, ${CUSTOM_LIMIT_FIELDS.join(', ')} FROM api_keys WHERE id = $1 AND revoked_at IS NULL FOR UPDATE`,
      { bind: [keyId], type: QueryTypes.SELECT, transaction },
    );
    if (!before) return undefined;
    const [row] = await sequelize.query<ListedKeyRow & { key_hash: string }>(
      `UPDATE api_keys k
          SET rate_limit = CASE WHEN $2 THEN $3::integer ELSE k.rate_limit END,
              daily_quota = CASE WHEN $4 THEN $5::integer ELSE k.daily_quota END,
              concurrency_limit = CASE WHEN $6 THEN $7::integer ELSE k.concurrency_limit END
         FROM users u
        WHERE k.id = $1 AND u.id = k.user_id
        RETURNING ${LISTED_KEY_COLUMNS}, k.key_hash`,
      {
        bind: [
          keyId,
          'rateLimit' in changes,
          changes.rateLimit ?? null,
          'dailyQuota' in changes,
          changes.dailyQuota ?? null,
          'concurrencyLimit' in changes,
          changes.concurrencyLimit ?? null,
        ],
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    const key = toListedKey(row, roleLimits);
    const ownerId = before.user_id;
    await recordIdentityEvent(sequelize, transaction, change, {
      action: 'key.limits_changed',
      entityType: 'api_key',
      before: { id: keyId, ownerId, limits: customLimitsOf(before) },
      after: { id: keyId, ownerId, limits: key.customLimits },
    });
    return { key, keyHash: row.key_hash };
  });
}

interface RevokedRow {
  id: string;
  name: string;
  key_hash: string;
  revoked_at: Date;
}

/** Records `key.revoked` for each key a statement revoked. */
async function recordRevocations(sequelize: Sequelize, transaction: Transaction, change: ChangeContext, ownerId: string, rows: RevokedRow[]) {
  for (const row of rows) {
    const key = { id: row.id, ownerId, name: row.name };
    await recordIdentityEvent(sequelize, transaction, change, {
      action: 'key.revoked',
      entityType: 'api_key',
      before: { ...key, revokedAt: null },
      after: { ...key, revokedAt: new Date(row.revoked_at).toISOString() },
    });
  }
}

/**
 * Revokes one of the user's keys and records `key.revoked`. Returns the key's hash (so that the caller can drop it
 * from its cache at once), or undefined when the user has no such key. Revoking a revoked key again changes
 * nothing, records nothing, and succeeds.
 */
export async function revokeKey(sequelize: Sequelize, change: ChangeContext, userId: string, keyId: string): Promise<string | undefined> {
  return sequelize.transaction(async (transaction) => {
    const [key] = await sequelize.query<{ key_hash: string; revoked_at: Date | null }>(
      'SELECT key_hash, revoked_at FROM api_keys WHERE id = $1 AND user_id = $2 FOR UPDATE',
      { bind: [keyId, userId], type: QueryTypes.SELECT, transaction },
    );
    if (!key) return undefined;
    if (key.revoked_at) return key.key_hash;
    const revoked = await sequelize.query<RevokedRow>(
      'UPDATE api_keys SET revoked_at = now() WHERE id = $1 RETURNING id, name, key_hash, revoked_at',
      { bind: [keyId], type: QueryTypes.SELECT, transaction },
    );
    await recordRevocations(sequelize, transaction, change, userId, revoked);
    return key.key_hash;
  });
}

/**
 * Revokes a user's live keys (all, or those named `name`), recording `key.revoked` for each; returns their hashes,
 * for every instance to drop (announceKeyEvent).
 */
export async function revokeKeysOf(
  sequelize: Sequelize,
  transaction: Transaction,
  change: ChangeContext,
  userId: string,
  name?: string,
): Promise<string[]> {
  const revoked = await sequelize.query<RevokedRow>(
    `UPDATE api_keys SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL AND ($2::text IS NULL OR name = $2)
     RETURNING id, name, key_hash, revoked_at`,
    { bind: [userId, name ?? null], type: QueryTypes.SELECT, transaction },
  );
  await recordRevocations(sequelize, transaction, change, userId, revoked);
  return revoked.map((row) => row.key_hash);
}
