import { Client } from 'pg';
import { ConnectionAcquireTimeoutError, ConnectionRefusedError, DatabaseError, UniqueConstraintError } from 'sequelize';
import { isContentError, isTransientDatabaseError, sqlStateOf } from './database-errors';
import { createSequelize } from './sequelize';

// libs/testing builds on this library, so its POSTGRES_URL cannot be imported here; the same variable and default.
const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';

/** A pg error as the server sends it, wrapped by Sequelize as a failed query is. */
const wrapped = (code: string, message = 'from the server') => new DatabaseError(Object.assign(new Error(message), { code, sql: '' }));

describe('isTransientDatabaseError', () => {
  it.each([
    ['connection refused (Sequelize)', new ConnectionRefusedError(new Error('connect ECONNREFUSED 127.0.0.1:1'))],
    ['pool acquire timeout', new ConnectionAcquireTimeoutError(new Error('TimeoutError'))],
    ['57P01 admin_shutdown', wrapped('57P01', 'terminating connection due to administrator command')],
    ['57P02 crash_shutdown', wrapped('57P02')],
    ['57P03 cannot_connect_now', wrapped('57P03', 'the database system is starting up')],
    ['53300 too_many_connections', wrapped('53300', 'sorry, too many clients already')],
    ['08006 connection_failure', wrapped('08006')],
    ['a dropped connection (pg, no code)', new DatabaseError(Object.assign(new Error('Connection terminated unexpectedly'), { sql: '' }))],
    ['pg on a broken client', new Error('Client has encountered a connection error and is not queryable')],
    ['pg-pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['ECONNRESET', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['EPIPE', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })],
    ['ETIMEDOUT under Sequelize', new DatabaseError(Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT', sql: '' }))],
  ])('%s: transient', (_what, error) => {
    expect(isTransientDatabaseError(error)).toBe(true);
  });

  it.each([
    ['42601 syntax error: a bug', wrapped('42601')],
    ['08P01 protocol_violation (a message the server refused, e.g. a NUL in a literal)', wrapped('08P01')],
    ['57014 query_canceled (a statement timeout): the same query would time out again', wrapped('57014')],
    ['22P05 untranslatable character', wrapped('22P05')],
    ['40P01 deadlock', wrapped('40P01')],
    ['a unique violation', new UniqueConstraintError({ message: 'duplicate key' })],
    ['a plain error', new Error('something else')],
    ['a message that only mentions a connection', new Error('connection id is not a uuid')],
    ['not an error', 'Connection terminated'],
    ['nothing', undefined],
  ])('%s: not transient', (_what, error) => {
    expect(isTransientDatabaseError(error)).toBe(false);
  });
});

describe('sqlStateOf', () => {
  it("finds the server's code in what Sequelize wraps, and takes no Node error code for one", () => {
    expect(sqlStateOf(wrapped('23505'))).toBe('23505');
    expect(sqlStateOf({ original: { code: '22007' } })).toBe('22007');
    expect(sqlStateOf(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).toBeUndefined();
    expect(sqlStateOf(null)).toBeUndefined();
  });
});

// The errors the libraries really raise, not only their shapes: a refused connection, a backend ended under a
// client, and a pool with no connection to give.
describe('isTransientDatabaseError on real failures', () => {
  const serverUrl = `${POSTGRES_URL}/postgres`;

  it('a database nobody listens for', async () => {
    const sequelize = createSequelize('postgres://postgres@127.0.0.1:1/nowhere', 1); // port 1: nothing listens there
    try {
      const failure = await sequelize.query('SELECT 1').catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(Error);
      expect(isTransientDatabaseError(failure)).toBe(true);
    } finally {
      await sequelize.close();
    }
  });

  it('a connection whose backend is terminated (pg_terminate_backend)', async () => {
    const victim = new Client({ connectionString: serverUrl });
    victim.on('error', () => undefined); // the connection's own error event, as a pool would handle it
    await victim.connect();
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      const { rows } = await victim.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const pending = victim.query('SELECT pg_sleep(10)').catch((error: unknown) => error);
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
      const failure = await pending;
      expect(failure).toBeInstanceOf(Error);
      expect(isTransientDatabaseError(failure)).toBe(true);
    } finally {
      await admin.end();
      await victim.end().catch(() => undefined);
    }
  });

  it('a pool whose only connection is held past the acquire timeout', async () => {
    const sequelize = createSequelize(serverUrl, 1, 200);
    try {
      await sequelize.transaction(async () => {
        // The transaction holds the pool's one connection; this query, outside it, must wait for another.
        const failure = await sequelize.query('SELECT 1').catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(ConnectionAcquireTimeoutError);
        expect(isTransientDatabaseError(failure)).toBe(true);
      });
    } finally {
      await sequelize.close();
    }
  });

  it('a statement timeout is not transient: the same query would fail again', async () => {
    const sequelize = createSequelize(serverUrl, 1);
    try {
      const failure = await sequelize
        .transaction(async (transaction) => {
          await sequelize.query("SET LOCAL statement_timeout = '10ms'", { transaction });
          await sequelize.query('SELECT pg_sleep(1)', { transaction });
        })
        .catch((error: unknown) => error);
      expect(sqlStateOf(failure)).toBe('57014');
      expect(isTransientDatabaseError(failure)).toBe(false);
    } finally {
      await sequelize.close();
    }
  });
});

describe('isContentError', () => {
  it.each([
    [{ parent: { code: '22P05' } }, true], // untranslatable character
    [{ original: { code: '23505' } }, true], // unique violation
    [{ code: '22007' }, true], // invalid datetime format
    [{ parent: { code: '57P01' } }, false], // admin shutdown
    [{ parent: { code: '08006' } }, false], // connection failure
    [{ parent: { code: '40P01' } }, false], // deadlock
    [{ parent: { code: '53300' } }, false], // too many connections
    [new Error('Connection terminated unexpectedly'), false],
    [{ code: 'ECONNREFUSED' }, false],
    [undefined, false],
  ])('%j → %s', (error, expected) => {
    expect(isContentError(error)).toBe(expected);
  });
});
