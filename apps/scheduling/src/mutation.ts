import { randomInt } from 'node:crypto';
import type { Sequelize, Transaction } from 'sequelize';
import type { CursorCodec } from '@libs/cursor';
import { sqlStateOf } from '@libs/db';
import { METADATA, type Actor, type CallContext } from '@libs/grpc';
import { idempotent, type IdempotentCall } from '@libs/idempotency';
import type { PremiseDirectory } from './locations/premise-directory';

/** What every scheduling handler needs. */
export interface SchedulingDeps {
  sequelize: Sequelize;
  /** Signs list cursors and slot tokens. */
  cursors: CursorCodec;
  premises: PremiseDirectory;
  /** Called after a commit that wrote outbox rows, so the relay sends them at once. */
  afterCommit: () => void;
}

/** An idempotent write: the RPC's idempotency call, and its context, whose response headers mark a replay. */
export interface OnceCall<T> extends IdempotentCall<T> {
  context: CallContext;
}

/** Deadlocks and serialization failures: the same transaction, run again, usually passes. */
const RETRYABLE_STATES = new Set(['40P01', '40001']);
const ATTEMPTS = 4;

/**
 * Runs a write in one READ COMMITTED transaction: the change, its history and its outbox event commit together
 * (the exclusion constraints carry the no-double-booking invariant, so no stronger isolation is needed). A
 * deadlock or serialization failure runs it again after a random pause that doubles each time. With an
 * idempotency call, a replay commits nothing new and returns the first response, marked as a replay in the
 * response headers (the gateway answers `Idempotent-Replayed: true`, as finance's replays are).
 */
export async function mutate<T>(
  deps: Pick<SchedulingDeps, 'sequelize' | 'afterCommit'>,
  actor: Actor,
  call: OnceCall<T> | undefined,
  write: (transaction: Transaction) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const outcome = await deps.sequelize.transaction((transaction) =>
        call ? idempotent(deps.sequelize, transaction, actor, call, () => write(transaction)) : write(transaction).then((response) => ({ replayed: false, response })),
      );
      if (outcome.replayed) call?.context.sendHeaders?.({ [METADATA.idempotentReplayed]: 'true' });
      else deps.afterCommit();
      return outcome.response;
    } catch (error) {
      if (attempt >= ATTEMPTS || !RETRYABLE_STATES.has(sqlStateOf(error) ?? '')) throw error;
      await new Promise((resolve) => setTimeout(resolve, randomInt(1, 20 * 2 ** attempt)));
    }
  }
}

/** Which exclusion constraint of the allocation table a failed write broke (SQLSTATE 23P01), if it broke one. */
export function exclusionBroken(error: unknown): 'resource' | 'student' | undefined {
  if (sqlStateOf(error) !== '23P01') return undefined;
  const layers = [error, (error as { parent?: unknown }).parent, (error as { original?: unknown }).original];
  const constraint = layers.map((layer) => (layer as { constraint?: unknown } | undefined)?.constraint).find((name) => typeof name === 'string');
  return constraint === 'allocation_student_free' ? 'student' : 'resource';
}
