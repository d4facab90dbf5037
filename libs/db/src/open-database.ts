import type { Sequelize } from 'sequelize';
import { ensureDatabase } from './ensure-database';
import { runMigrations, type Migration } from './migrate';
import { createSequelize } from './sequelize';

/** A service's start-up step: create its database if missing, connect, and apply pending migrations. */
export async function openServiceDatabase(options: {
  url: string;
  poolMax: number;
  acquireTimeoutMs?: number;
  migrations: Migration[];
  log: (message: string) => void;
}): Promise<Sequelize> {
  await ensureDatabase(options.url);
  const sequelize = createSequelize(options.url, options.poolMax, options.acquireTimeoutMs);
  await runMigrations(sequelize, options.url, options.migrations, options.log);
  return sequelize;
}
