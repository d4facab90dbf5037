import { createHash } from 'node:crypto';
import { Client } from 'pg';
import type { QueryInterface, Sequelize } from 'sequelize';
import { SequelizeStorage, Umzug } from 'umzug';

export interface Migration {
  name: string;
  up: (params: { context: QueryInterface }) => Promise<void>;
  down: (params: { context: QueryInterface }) => Promise<void>;
}

/**
 * The advisory lock that serialises migrations. PostgreSQL scopes advisory locks to the database they are taken
 * in, so one key serves every service's database; a key derived from the connection URL let two instances that
 * spell it differently (another host name for the same server, a parameter, a rotated password) migrate at once.
 */
const MIGRATION_LOCK_KEY = createHash('sha256').update('migrations').digest().readBigInt64BE(0).toString();

/**
 * Applies pending migrations in order. Several instances may start at once (replicas of a Deployment do), so
 * the run is serialised with a PostgreSQL advisory lock held on its own connection: the first applies what is
 * pending while the others wait, then find nothing left to apply.
 */
export async function runMigrations(
  sequelize: Sequelize,
  url: string,
  migrations: Migration[],
  log: (message: string) => void,
): Promise<string[]> {
  const lock = new Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const umzug = new Umzug({
      migrations,
      context: sequelize.getQueryInterface(),
      storage: new SequelizeStorage({ sequelize, tableName: 'schema_migrations' }),
      logger: undefined,
    });
    const applied = await umzug.up();
    for (const migration of applied) log(`applied migration ${migration.name}`);
    return applied.map((migration) => migration.name);
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.end();
  }
}
