import type { QueryResult } from 'pg';
import type { Sequelize } from 'sequelize';

/** A pooled connection as pg gives it: a simple-query message of several statements answers with one result each. */
interface PgConnection {
  query(sql: string, values?: unknown[]): Promise<QueryResult | QueryResult[]>;
}

/**
 * The rows of a read-only SELECT, sent on a connection of Sequelize's pool
 * directly: Sequelize's query layer (options, bind formatting, result shaping)
 * was an eighth of the reference service's CPU on a search, for statements
 * that need none of it. The pool still lends and checks the connection, the
 * rows come through the same type parsers, and errors are pg's own (with their
 * SQLSTATE, which isTransientDatabaseError reads). Without values, `sql` may
 * be several statements in one message (settings, then the SELECT): the rows
 * are the last statement's. Sequelize's `logging` option, when a function,
 * still sees each statement, worded as Sequelize words it.
 */
export async function selectRows<Row extends object>(sequelize: Sequelize, sql: string, values?: unknown[]): Promise<Row[]> {
  const { connectionManager } = sequelize;
  // Not in Sequelize's typings, but public and documented: the options it was made with.
  const log = (sequelize as unknown as { options: { logging?: unknown } }).options.logging;
  if (typeof log === 'function') log(`Executing (default): ${sql}`);
  const connection = (await connectionManager.getConnection({ type: 'read' })) as PgConnection;
  try {
    const results = await connection.query(sql, values);
    return (Array.isArray(results) ? results[results.length - 1] : results).rows as Row[];
  } finally {
    connectionManager.releaseConnection(connection);
  }
}
