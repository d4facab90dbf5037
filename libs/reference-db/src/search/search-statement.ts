import type { Sequelize } from 'sequelize';
import { pipelinedTransaction, selectRows, sqlStateOf, type Statement } from '@libs/db';
import type { Vocabulary } from './term-index';
import type { TermTables } from './term-tables';

/** The reference database as disease search uses it: every statement is cut off after statementTimeoutMs. */
export interface SearchDb {
  sequelize: Sequelize;
  statementTimeoutMs: number;
  /**
   * The vocabularies' terms in memory: the near pass of fuzzy search runs from them (near-candidates.ts) instead
   * of the trigram index. Without them every pass runs in the database (the benchmark's express+pg baseline).
   */
  terms?: TermTables<Vocabulary>;
}

/**
 * The default of the reference service's SEARCH_STATEMENT_TIMEOUT_MS. The
 * costliest ordinary searches are one common letter or word ("a", "syndrome"):
 * thousands of candidates, the slowest statements on the full CTD set (the
 * bench's `fuzzy search` on its default data; figures in docs/PERFORMANCE.md);
 * the timeout leaves them room for a busy machine, and stops anything slower
 * long before the gateway's deadline.
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
 * What every search statement runs with: the statement timeout, and no sequential scans. A search must come
 * from an index whatever its input, and the planner prices `%` like an integer comparison, so for a long
 * query (many trigrams, a costly index scan on paper) it would rather compute the similarity of every term,
 * a hundred times the index's work (disease-search-plans.spec.ts holds the plans to the index).
 */
const searchSettings = (db: SearchDb) => [`SET LOCAL statement_timeout = ${Math.trunc(db.statementTimeoutMs)}`, 'SET LOCAL enable_seqscan = off'];

async function stoppedAtTimeout<T>(db: SearchDb, search: () => Promise<T>): Promise<T> {
  try {
    return await search();
  } catch (error) {
    if (isStatementTimeout(error)) throw new SearchTimeoutError(db.statementTimeoutMs);
    throw error;
  }
}

/**
 * Runs one search SELECT after its settings (searchSettings, then the
 * search's own), all in one simple-query message: its statements run as one
 * implicit transaction, so SET LOCAL holds for the SELECT and ends with it (an
 * error rolls it all back), a pooled connection keeps its defaults, and the
 * search costs one round trip. Such a message cannot carry bind parameters, so
 * values go into the SQL as escaped literals (pg's escapeLiteral) or numbers:
 * for the fuzzy candidates, whose settings change with the query. It is sent
 * with selectRows, past Sequelize's query layer.
 */
export function runSearchStatement<Row extends object>(db: SearchDb, settings: string[], select: string): Promise<Row[]> {
  return stoppedAtTimeout(db, () => selectRows<Row>(db.sequelize, [...searchSettings(db), ...settings, select].join(';\n')));
}

/**
 * Runs one search SELECT as a named prepared statement with bind parameters,
 * in a transaction whose BEGIN carries searchSettings: BEGIN with the
 * settings, the SELECT and COMMIT are sent together (pipelinedTransaction), one
 * round trip. PostgreSQL parses the SELECT once per connection and, once its
 * generic plan is found as good as the custom ones (after five runs), plans it
 * no more: that was most of its time on an exact search. The timeout holds as
 * in one message: the SELECT's own messages start its timer, with the
 * transaction's setting (disease-search.spec.ts stops every kind of search).
 */
export function runPreparedSearch<Row extends object>(db: SearchDb, select: Statement & { name: string }): Promise<Row[]> {
  return stoppedAtTimeout(db, async () => {
    const [rows] = await pipelinedTransaction(db.sequelize, (rounds) => rounds.last<Row>([select]), { settings: searchSettings(db) });
    return rows;
  });
}
