import type { QueryResult } from 'pg';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';

/** One parameterised statement ($1, $2, … as pg and Sequelize's `bind` both number them). */
export interface Statement {
  text: string;
  values: unknown[];
  /**
   * Makes it a prepared statement in pipelined rounds: parsed once per connection, and planned once when
   * PostgreSQL finds its generic plan as good (a hot path's statement). One name, one text, everywhere.
   */
  name?: string;
}

/**
 * The statements of one database transaction, sent in rounds: each round's
 * statements are answered together, and the rows of each are given in order.
 * A write that needs an answer before its next statements (the row it inserted,
 * say) runs two rounds; `last` is the round that ends the transaction.
 */
export interface TransactionRounds {
  run<Row extends object = Record<string, unknown>>(statements: Statement[]): Promise<Row[][]>;
  /** The transaction's last statements: where the connection allows, COMMIT goes with them in the same round. */
  last<Row extends object = Record<string, unknown>>(statements: Statement[]): Promise<Row[][]>;
}

/** Rounds inside a Sequelize transaction, one statement at a time (the transaction's owner commits it). */
export function sequelizeRounds(sequelize: Sequelize, transaction: Transaction): TransactionRounds {
  const run = async <Row extends object>(statements: Statement[]): Promise<Row[][]> => {
    const results: Row[][] = [];
    for (const { text, values } of statements) {
      results.push(await sequelize.query<Row>(text, { bind: values, type: QueryTypes.SELECT, transaction }));
    }
    return results;
  };
  return { run, last: run };
}

/** A pooled pg client as Sequelize lends it; `pipeline` and `connection.stream` are pg's own fields. */
interface PgClient {
  query(text: string | Statement, values?: unknown[]): Promise<QueryResult>;
  pipeline: boolean;
  connection?: { stream?: { cork?: () => void; uncork?: () => void } };
}

/**
 * Runs `work` as one transaction on a connection of Sequelize's pool, in pg's
 * pipeline mode: BEGIN goes out with the first round and COMMIT with the last,
 * and each round's statements are written in one socket write and answered in
 * one round trip. A create of one row and its outbox event takes two round
 * trips this way, against five one statement at a time through Sequelize (a
 * round trip was about a third of finance's CPU: each is a write and a wake-up).
 *
 * Atomicity is PostgreSQL's: a statement that fails aborts the transaction, so
 * the statements after it in its round fail too and the COMMIT that follows
 * rolls back; the round rejects with the first error. If `work` throws (a
 * reference missing, say) the transaction is rolled back. pg's pipeline mode is
 * a client option, which Sequelize's pool does not pass on; it is read on every
 * send, so it is switched on for this lease, while the client is idle, and off
 * again before the client goes back to the pool.
 */
export async function pipelinedTransaction<T>(sequelize: Sequelize, work: (rounds: TransactionRounds) => Promise<T>): Promise<T> {
  const { connectionManager } = sequelize;
  const client = (await connectionManager.getConnection({ type: 'write' })) as PgClient;
  let begun = false;
  let ended = false;
  const round = async <Row extends object>(statements: Statement[], end: boolean): Promise<Row[][]> => {
    if (ended) throw new Error('the transaction has ended: its last round was sent');
    const sent: Promise<QueryResult>[] = [];
    const first = begun ? 0 : 1;
    const stream = client.connection?.stream;
    // One write for the round: pg corks each statement's messages; the outer cork holds them all until uncorked.
    stream?.cork?.();
    try {
      if (!begun) sent.push(client.query('BEGIN'));
      begun = true;
      for (const statement of statements) sent.push(client.query(statement));
      if (end) sent.push(client.query('COMMIT'));
    } finally {
      stream?.uncork?.();
    }
    // Even a COMMIT that fails ends the transaction (an aborted one answers COMMIT with a rollback).
    ended ||= end;
    const settled = await Promise.allSettled(sent);
    const failure = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failure) throw failure.reason;
    return settled
      .slice(first, first + statements.length)
      .map((outcome) => (outcome as PromiseFulfilledResult<QueryResult>).value.rows as Row[]);
  };
  client.pipeline = true;
  let broken = false;
  try {
    const result = await work({ run: (statements) => round(statements, false), last: (statements) => round(statements, true) });
    if (!ended) await round([], true);
    return result;
  } catch (error) {
    if (begun && !ended) await client.query('ROLLBACK').catch(() => (broken = true));
    throw error;
  } finally {
    client.pipeline = false;
    // A client whose ROLLBACK failed may still be inside the transaction: it must not be lent again.
    if (broken) await connectionManager.destroyConnection(client as never).catch(() => undefined);
    else connectionManager.releaseConnection(client as never);
  }
}
