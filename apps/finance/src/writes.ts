import type { Transaction } from 'sequelize';
import { pipelinedTransaction, sequelizeRounds, type TransactionRounds } from '@libs/db';
import { METADATA, type Actor, type CallContext } from '@libs/grpc';
import type { FinanceDeps } from './finance-deps';
import { idempotent, type IdempotentCall } from '@libs/idempotency';

/** Runs a write in one database transaction (the change and its outbox event commit together). */
export async function mutate<T>(deps: FinanceDeps, write: (transaction: Transaction) => Promise<T>): Promise<T> {
  const result = await deps.sequelize.transaction(write);
  deps.afterCommit();
  return result;
}

/**
 * Like mutate, for POSTs that honour Idempotency-Key: a replay commits nothing new and returns the first
 * response, marked as a replay in the response headers (the gateway answers `Idempotent-Replayed: true`).
 */
export async function mutateOnce<T>(
  deps: FinanceDeps,
  context: CallContext,
  actor: Actor,
  call: IdempotentCall<T>,
  write: (transaction: Transaction) => Promise<T>,
): Promise<T> {
  const outcome = await deps.sequelize.transaction((transaction) =>
    idempotent(deps.sequelize, transaction, actor, call, () => write(transaction)),
  );
  if (outcome.replayed) context.sendHeaders?.({ [METADATA.idempotentReplayed]: 'true' });
  else deps.afterCommit();
  return outcome.response;
}

/**
 * Like mutateOnce, for a write given as rounds of statements (a hot path): without an Idempotency-Key it runs
 * pipelined, BEGIN and COMMIT travelling with its statements (pipelinedTransaction); with one, inside the
 * transaction that records the key, one statement at a time.
 */
export async function mutateOnceInRounds<T>(
  deps: FinanceDeps,
  context: CallContext,
  actor: Actor,
  call: IdempotentCall<T>,
  write: (rounds: TransactionRounds) => Promise<T>,
): Promise<T> {
  if (call.key !== '') return mutateOnce(deps, context, actor, call, (transaction) => write(sequelizeRounds(deps.sequelize, transaction)));
  const result = await pipelinedTransaction(deps.sequelize, write);
  deps.afterCommit();
  return result;
}
