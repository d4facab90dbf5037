import type { QueryResult } from 'pg';
import type { Sequelize } from 'sequelize';

/** One parameterised statement ($1, $2, … as pg and Sequelize's `bind` both number them). */
export interface Statement {
  text: string;
  values: unknown[];
  /**
   * Makes it a prepared statement on pg directly: parsed once per connection, and planned once when
   * PostgreSQL finds its generic plan as good (a hot path's statement). One name, one text, everywhere.
   */
  name?: string;
}

/** A pooled pg client as Sequelize lends it; `pipeline` and `connection.stream` are pg's own fields. */
export interface PgClient {
  query(query: string | Statement): Promise<QueryResult>;
  pipeline: boolean;
  connection?: { stream?: { cork?: () => void; uncork?: () => void } };
}

/**
 * Lends a connection of Sequelize's pool in pg's pipeline mode, where queries
 * are sent without waiting for the answers to those before them. Pipeline mode
 * is a pg client option, which Sequelize's pool does not pass on; pg reads it on
 * every send, so it is switched on for this lease, while the client is idle,
 * and off again before the client goes back. `use` calls `discard` when the
 * client may be left inside a transaction: it is then closed, not lent again.
 */
export async function withPipelinedClient<T>(
  sequelize: Sequelize,
  use: (client: PgClient, discard: () => void) => Promise<T>,
): Promise<T> {
  const { connectionManager } = sequelize;
  const client = (await connectionManager.getConnection({ type: 'write' })) as PgClient;
  let reusable = true;
  client.pipeline = true;
  try {
    return await use(client, () => (reusable = false));
  } finally {
    client.pipeline = false;
    if (reusable) connectionManager.releaseConnection(client as never);
    else await connectionManager.destroyConnection(client as never).catch(() => undefined);
  }
}

/**
 * Sends the queries in one socket write and waits for every answer: one round
 * trip. Rejects with the first error, once all are answered (so no answer is
 * left to arrive after the client has gone back to the pool).
 */
export async function sendTogether(client: PgClient, queries: (string | Statement)[]): Promise<QueryResult[]> {
  const stream = client.connection?.stream;
  // pg corks each query's messages; the outer cork holds them all until uncorked.
  stream?.cork?.();
  let sent: Promise<QueryResult>[];
  try {
    sent = queries.map((query) => client.query(query));
  } finally {
    stream?.uncork?.();
  }
  const settled = await Promise.allSettled(sent);
  const failure = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failure) throw failure.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<QueryResult>).value);
}

/**
 * Runs statements, each by itself (its own implicit transaction), in one round
 * trip on a connection of Sequelize's pool, and gives pg's results (rows, and
 * rowCount for an UPDATE). For the statements a service runs all the time in
 * the background (the outbox relay's claim and mark), where Sequelize's query
 * layer and a parse and plan per run were most of their cost.
 */
export function runStatements(sequelize: Sequelize, statements: Statement[]): Promise<QueryResult[]> {
  return withPipelinedClient(sequelize, (client) => sendTogether(client, statements));
}
