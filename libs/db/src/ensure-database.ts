import { Client } from 'pg';

export function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!/^[\w-]{1,63}$/.test(name)) throw new Error(`database name ${JSON.stringify(name)} is not a plain identifier`);
  return name;
}

/** Creates the database named in `url` when it is missing, connecting to the server's `postgres` database to do it. */
export async function ensureDatabase(url: string): Promise<boolean> {
  const name = databaseName(url);
  const adminUrl = new URL(url);
  adminUrl.pathname = '/postgres';
  const client = new Client({ connectionString: adminUrl.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE "${name}"`);
      return true;
    } catch (error) {
      // Another instance created it between our check and our CREATE.
      const code = (error as { code?: string }).code;
      if (code === '42P04' || code === '23505') return false;
      throw error;
    }
  } finally {
    await client.end();
  }
}
