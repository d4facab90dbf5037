import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * A database of its own for one of this library's specs. libs/testing builds on this library, so its
 * POSTGRES_URL and namespaces cannot be imported here; this uses the same variable, default and name pattern
 * (so that a killed run's database is dropped as stale by the next test run). Used by specs only.
 */
const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: `${POSTGRES_URL}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export function scratchDatabase(suffix: string) {
  const name = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}_${suffix}`;
  return {
    url: `${POSTGRES_URL}/${name}`,
    create: () => admin(`CREATE DATABASE "${name}"`),
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
