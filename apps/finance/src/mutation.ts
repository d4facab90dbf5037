import type { Sequelize, Transaction } from 'sequelize';
import type { CursorCodec } from '@libs/cursor';
import type { Actor } from '@libs/grpc';
import { idempotent, type IdempotentCall } from '@libs/idempotency';

/** What every finance handler needs. */
export interface FinanceDeps {
  sequelize: Sequelize;
  cursors: CursorCodec;
  /** Called after a commit that wrote outbox rows, so the relay sends them at once. */
  afterCommit: () => void;
}

/** Runs a write in one database transaction (the change and its outbox event commit together). */
export async function mutate<T>(deps: FinanceDeps, write: (transaction: Transaction) => Promise<T>): Promise<T> {
  const result = await deps.sequelize.transaction(write);
  deps.afterCommit();
  return result;
}

/** Like mutate, for POSTs that honour Idempotency-Key: a replay commits nothing new and returns the first response. */
export async function mutateOnce<T>(
  deps: FinanceDeps,
  actor: Actor,
  call: IdempotentCall<T>,
  write: (transaction: Transaction) => Promise<T>,
): Promise<T> {
  const outcome = await deps.sequelize.transaction((transaction) =>
    idempotent(deps.sequelize, transaction, actor, call, () => write(transaction)),
  );
  if (!outcome.replayed) deps.afterCommit();
  return outcome.response;
}
