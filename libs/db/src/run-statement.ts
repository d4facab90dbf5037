import type { QueryResult } from 'pg';
import type { Sequelize } from 'sequelize';
import type { Statement } from './pipelined-transaction';

/**
 * Runs one statement by itself (its own implicit transaction) on a connection
 * of Sequelize's pool directly, like selectRows, and gives pg's result: the
 * rows, and rowCount for an UPDATE. A named statement is prepared once per
 * connection (Statement.name). For the statements a service runs all the time
 * in the background (the outbox relay's claim and mark), where Sequelize's query
 * layer and a parse and plan per run were most of their cost.
 */
export async function runStatement<Row extends object>(sequelize: Sequelize, statement: Statement): Promise<QueryResult<Row>> {
  const { connectionManager } = sequelize;
  const client = (await connectionManager.getConnection({ type: 'write' })) as {
    query(statement: Statement): Promise<QueryResult<Row>>;
  };
  try {
    return await client.query(statement);
  } finally {
    connectionManager.releaseConnection(client as never);
  }
}
