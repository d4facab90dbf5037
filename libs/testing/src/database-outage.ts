import { databaseName } from '@libs/db';
import { withPgClient } from './pg-client';
import { POSTGRES_URL } from './resources';

export interface DatabaseOutage {
  /** Lets clients connect to the database again. */
  end(): Promise<void>;
}

const onServer = <T>(work: Parameters<typeof withPgClient<T>>[1]) => withPgClient(`${POSTGRES_URL}/postgres`, work);

/**
 * Makes one database unreachable the way an outage does, without stopping the
 * server other test runs share: PostgreSQL refuses every new connection to it,
 * and ends every open one (clients see 57P01 admin_shutdown, or a connection
 * terminated while idle). The database and its data stay as they were.
 */
export async function startDatabaseOutage(url: string): Promise<DatabaseOutage> {
  const name = databaseName(url);
  await onServer(async (client) => {
    await client.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
    await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
  });
  return { end: () => onServer(async (client) => void (await client.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`))) };
}

/** Ends every open connection to one database, which stays reachable: a blip, as when a pooler or failover drops them. */
export async function dropDatabaseConnections(url: string): Promise<number> {
  const name = databaseName(url);
  return onServer(async (client) => {
    const { rowCount } = await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
    return rowCount ?? 0;
  });
}
