import { QueryTypes } from 'sequelize';
import { runMigrations, type Migration } from './migrate';
import { createSequelize } from './sequelize';
import { scratchDatabase } from './scratch-database';

const database = scratchDatabase('migrations');

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
  beforeAll(() => database.create());
  afterAll(() => database.drop());

  it('applies each migration once when several instances start at once, however each spells the URL', async () => {
    // One database, three spellings: as replicas configured by hand, or across a password rotation, might have.
    const urls = [database.url, `${database.url}?application_name=second`, database.url.replace(/^postgres:/, 'postgresql:')];
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
