import { createHash } from 'node:crypto';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { canonicalJson, IDEMPOTENCY_KEY_MAX_LENGTH } from '@libs/contracts';
import { GrpcStatus, RpcError, type Actor } from '@libs/grpc';

/** How long a key is remembered (docs/decisions/0006). */
const KEY_LIFETIME = '24 hours';

interface JsonCodec<T> {
  toJSON(message: T): unknown;
  fromJSON(object: unknown): T;
}

export interface IdempotentCall<T> {
  method: string;
  key: string;
  /** The whole request; its fingerprint tells a retry from a different request under the same key. */
  request: unknown;
  codec: JsonCodec<T>;
}

export interface Outcome<T> {
  replayed: boolean;
  response: T;
}

/**
 * Runs `write` once per (actor, key). Must be called inside the transaction that
 * writes: the key row is inserted first, so a concurrent duplicate blocks on the
 * primary key until this transaction ends, then finds the stored response (or,
 * if this one rolled back, runs itself). A failed write stores nothing, so a
 * retry after an error runs again.
 */
export async function idempotent<T>(
  sequelize: Sequelize,
  transaction: Transaction,
  actor: Actor,
  call: IdempotentCall<T>,
  write: () => Promise<T>,
): Promise<Outcome<T>> {
  if (call.key === '') return { replayed: false, response: await write() };
  if (call.key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw RpcError.invalidArgument('Idempotency-Key', `must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`);
  }
  const fingerprint = createHash('sha256').update(`${call.method}\n${canonicalJson(call.request)}`).digest('hex');
  const bind = [actor.userId, call.key];
  // Expired keys of this user go now (the primary key's actor_id prefix finds them), so a key can be reused
  // after 24 h and the table holds only live keys of active users.
  await sequelize.query(`DELETE FROM idempotency_keys WHERE actor_id = $1 AND created_at < now() - interval '${KEY_LIFETIME}'`, {
    bind: [actor.userId],
    transaction,
  });
  const inserted = await sequelize.query(
    `INSERT INTO idempotency_keys (actor_id, key, fingerprint) VALUES ($1, $2, $3)
     ON CONFLICT (actor_id, key) DO NOTHING RETURNING 1`,
    { bind: [...bind, fingerprint], type: QueryTypes.SELECT, transaction },
  );
  if (inserted.length === 0) {
    const [first] = await sequelize.query<{ fingerprint: string; response: unknown }>(
      'SELECT fingerprint, response FROM idempotency_keys WHERE actor_id = $1 AND key = $2',
      { bind, type: QueryTypes.SELECT, transaction },
    );
    if (first.fingerprint !== fingerprint || first.response === null) {
      throw new RpcError(
        GrpcStatus.ALREADY_EXISTS,
        'this Idempotency-Key was already used with a different request; use a new key for a new request',
      );
    }
    return { replayed: true, response: call.codec.fromJSON(first.response) };
  }
  const response = await write();
  await sequelize.query('UPDATE idempotency_keys SET response = $3::jsonb WHERE actor_id = $1 AND key = $2', {
    bind: [...bind, JSON.stringify(call.codec.toJSON(response))],
    transaction,
  });
  return { replayed: false, response };
}
