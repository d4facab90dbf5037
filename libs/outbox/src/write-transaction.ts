import type { Sequelize, Transaction } from 'sequelize';
import { pipelinedTransaction, retryOnConflict, sequelizeRounds, type TransactionRounds } from '@libs/db';
import { METADATA, type Actor, type CallContext } from '@libs/grpc';
import { idempotent, type IdempotentCall } from '@libs/idempotency';

/** What a service's writes need: its database, and its outbox relay to wake. */
export interface WriteDeps {
  sequelize: Sequelize;
  /** Called after a commit that wrote outbox rows, so the relay sends them at once (RunningOutbox.nudge). */
  afterCommit: () => void;
}

/**
 * A write that honours Idempotency-Key (an empty key: none given): the RPC's idempotency call, the actor whose
 * keys it is among, and the call's context, whose response headers mark a replay.
 */
export interface OnceCall<T> extends IdempotentCall<T> {
  actor: Actor;
  context: CallContext;
}

/**
 * Runs a write in one READ COMMITTED transaction: the change and its outbox event (recordEvent) commit together,
 * and the relay is woken after the commit. A deadlock or serialization failure runs the whole transaction again
 * (retryOnConflict), so `write` must do nothing outside it. With `once`, a replay of its key commits nothing new
 * and returns the first response, marked as a replay in the response headers (the gateway answers
 * `Idempotent-Replayed: true`).
 */
export async function writeTransaction<T>(
  deps: WriteDeps,
  once: OnceCall<T> | undefined,
  write: (transaction: Transaction) => Promise<T>,
): Promise<T> {
  const outcome = await retryOnConflict(() =>
    deps.sequelize.transaction((transaction) =>
      once
        ? idempotent(deps.sequelize, transaction, once.actor, once, () => write(transaction))
        : write(transaction).then((response) => ({ replayed: false, response })),
    ),
  );
  if (outcome.replayed) once?.context.sendHeaders?.({ [METADATA.idempotentReplayed]: 'true' });
  else deps.afterCommit();
  return outcome.response;
}

/**
 * writeTransaction for a write given as rounds of statements (a hot path): without an Idempotency-Key it runs
 * pipelined, BEGIN and COMMIT travelling with its statements (pipelinedTransaction); with one, inside the
 * transaction that records the key, one statement at a time.
 */
export async function writeTransactionInRounds<T>(
  deps: WriteDeps,
  once: OnceCall<T>,
  write: (rounds: TransactionRounds) => Promise<T>,
): Promise<T> {
  if (once.key !== '') return writeTransaction(deps, once, (transaction) => write(sequelizeRounds(deps.sequelize, transaction)));
  const result = await retryOnConflict(() => pipelinedTransaction(deps.sequelize, write));
  deps.afterCommit();
  return result;
}
