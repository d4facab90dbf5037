export { ensureDatabase, databaseName } from './ensure-database';
export { createSequelize } from './sequelize';
export { runMigrations, type Migration } from './migrate';
export { openServiceDatabase } from './open-database';
export { isContentError, isTransientDatabaseError, sqlStateOf } from './database-errors';
export { retryOnConflict } from './conflict-retry';
export { selectRows } from './select-rows';
export { pipelinedTransaction, sequelizeRounds, type TransactionRounds } from './pipelined-transaction';
export { runStatements, type Statement } from './pipelined';
