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
 * Applies pending migrations in order. Several instances may start at once, so
 * the run is serialised with a PostgreSQL advisory lock held on its own connection.
 */
export async function runMigrations(
  sequelize: Sequelize,
  url: string,
  migrations: Migration[],
  log: (message: string) => void,
): Promise<string[]> {
  const lockKey = createHash('sha256').update(`migrations:${url}`).digest().readBigInt64BE(0);
  const lock = new Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [lockKey.toString()]);
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
    await lock.query('SELECT pg_advisory_unlock($1)', [lockKey.toString()]).catch(() => undefined);
    await lock.end();
  }
}
