import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { sendTogether, withPipelinedClient, type Statement } from './pipelined';

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

interface PipelinedTransactionOptions {
  /**
   * Statements without values (`SET LOCAL …`) sent in BEGIN's own message: they hold for the transaction
   * and end with it, at no extra message or answer.
   */
  settings?: string[];
}

/**
 * Runs `work` as one transaction, pipelined (withPipelinedClient): BEGIN goes
 * out with the first round and COMMIT with the last, and each round's
 * statements are written in one socket write and answered in one round trip. A
 * create of one row and its outbox event takes two round trips this way,
 * against five one statement at a time through Sequelize (a round trip was
 * about a third of finance's CPU: each is a write and a wake-up).
 *
 * Atomicity is PostgreSQL's: a statement that fails aborts the transaction, so
 * the statements after it in its round fail too and the COMMIT that follows
 * rolls back; the round rejects with the first error. If `work` throws (a
 * reference missing, say) the transaction is rolled back.
 */
export function pipelinedTransaction<T>(
  sequelize: Sequelize,
  work: (rounds: TransactionRounds) => Promise<T>,
  options: PipelinedTransactionOptions = {},
): Promise<T> {
  const begin = ['BEGIN', ...(options.settings ?? [])].join(';\n');
  return withPipelinedClient(sequelize, async (client, discard) => {
    let begun = false;
    let ended = false;
    const round = async <Row extends object>(statements: Statement[], end: boolean): Promise<Row[][]> => {
      if (ended) throw new Error('the transaction has ended: its last round was sent');
      const first = begun ? 0 : 1;
      const queries = [...(begun ? [] : [begin]), ...statements, ...(end ? ['COMMIT'] : [])];
      begun = true;
      // Even a COMMIT that fails ends the transaction (an aborted one answers COMMIT with a rollback).
      ended = end;
      const results = await sendTogether(client, queries);
      return results.slice(first, first + statements.length).map((result) => result.rows as Row[]);
    };
    try {
      const result = await work({ run: (statements) => round(statements, false), last: (statements) => round(statements, true) });
      if (!ended) await round([], true);
      return result;
    } catch (error) {
      // A client whose ROLLBACK failed may still be inside the transaction: it must not be lent again.
      if (begun && !ended) await client.query('ROLLBACK').catch(discard);
      throw error;
    }
  });
}
