import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { QueryTypes } from 'sequelize';
import { runMigrations, type Migration } from './migrate';
import { createSequelize } from './sequelize';

// libs/testing builds on this library, so its POSTGRES_URL and namespaces cannot be imported here; the same
// variable, default and name pattern (so that a killed run's database is dropped as stale).
const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';
const NAME = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}_migrations`;

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: `${POSTGRES_URL}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

// A migration that fails if run twice (CREATE TABLE) and is slow enough for the instances to overlap.
const migrations: Migration[] = [
  {
    name: '001-create',
    up: async ({ context }) => {
      await context.sequelize.query('CREATE TABLE runs (migration text NOT NULL)');
      await context.sequelize.query("INSERT INTO runs VALUES ('001'); SELECT pg_sleep(0.5)");
    },
    down: async () => undefined,
  },
  {
    name: '002-insert',
    up: async ({ context }) => {
      await context.sequelize.query("INSERT INTO runs VALUES ('002')");
    },
    down: async () => undefined,
  },
];

describe('runMigrations', () => {
  beforeAll(() => admin(`CREATE DATABASE "${NAME}"`));
  afterAll(() => admin(`DROP DATABASE IF EXISTS "${NAME}" WITH (FORCE)`));

  it('applies each migration once when several instances start at once, however each spells the URL', async () => {
    // One database, three spellings: as replicas configured by hand, or across a password rotation, might have.
    const urls = [`${POSTGRES_URL}/${NAME}`, `${POSTGRES_URL}/${NAME}?application_name=second`, `${POSTGRES_URL.replace(/^postgres:/, 'postgresql:')}/${NAME}`];
    const instances = urls.map((url) => ({ url, sequelize: createSequelize(url, 2) }));
    try {
      const applied = await Promise.all(instances.map(({ url, sequelize }) => runMigrations(sequelize, url, migrations, () => undefined)));
      expect(applied.flat().sort()).toEqual(['001-create', '002-insert']);
      const rows = await instances[0].sequelize.query<{ migration: string }>('SELECT migration FROM runs ORDER BY migration', {
        type: QueryTypes.SELECT,
      });
      expect(rows.map((row) => row.migration)).toEqual(['001', '002']);
    } finally {
      await Promise.all(instances.map(({ sequelize }) => sequelize.close()));
    }
  });
});
