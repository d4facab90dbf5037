import type { Sequelize } from 'sequelize';
import { selectRows, sqlStateOf } from '@libs/db';

/** The reference database as disease search uses it: every statement is cut off after statementTimeoutMs. */
export interface SearchDb {
  sequelize: Sequelize;
  statementTimeoutMs: number;
}

/**
 * The default of the reference service's SEARCH_STATEMENT_TIMEOUT_MS. The
 * costliest ordinary searches are one common letter or word ("a", "syndrome"):
 * thousands of candidates, up to about 300 ms at the database on the full CTD
 * set when the machine is quiet; the timeout leaves them room for a busy
 * machine, and stops anything slower long before the gateway's 5 s deadline.
 */
export const DEFAULT_SEARCH_STATEMENT_TIMEOUT_MS = 1000;

/** A search statement ran past the statement timeout and PostgreSQL stopped it. */
export class SearchTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`a search statement ran longer than ${timeoutMs} ms and was stopped`);
    this.name = 'SearchTimeoutError';
  }
}

/**
 * 57014 query_canceled: the statement timeout, or an operator's pg_cancel_backend; either way this search was
 * stopped and may pass later. The code, not the message, decides: the message follows the server's lc_messages.
 */
const isStatementTimeout = (error: unknown): boolean => sqlStateOf(error) === '57014';

/**
 * Runs one search SELECT after its settings, all in one simple-query message:
 * its statements run as one implicit transaction, so SET LOCAL holds for the
 * SELECT and ends with it (an error rolls it all back), a pooled connection
 * keeps its defaults, and the search costs one round trip. Such a message
 * cannot carry bind parameters, so values go into the SQL as escaped literals
 * (pg's escapeLiteral) or numbers.
 *
 * Every search statement runs with the statement timeout and without
 * sequential scans: a search must come from an index whatever its input, and
 * the planner prices `%` like an integer comparison, so for a long query
 * (many trigrams, a costly index scan on paper) it would rather compute the
 * similarity of all 77k terms, 470 ms where the index takes 5. It is sent
 * with selectRows, past Sequelize's query layer.
 */
export async function runSearchStatement<Row extends object>(db: SearchDb, settings: string[], select: string): Promise<Row[]> {
  const statements = [
    `SET LOCAL statement_timeout = ${Math.trunc(db.statementTimeoutMs)}`,
    'SET LOCAL enable_seqscan = off',
    ...settings,
    select,
  ];
  try {
    return await selectRows<Row>(db.sequelize, statements.join(';\n'));
  } catch (error) {
    if (isStatementTimeout(error)) throw new SearchTimeoutError(db.statementTimeoutMs);
    throw error;
  }
}
