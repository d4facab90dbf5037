import { openServiceDatabase, type Migration } from '@libs/db';
import type { Sequelize } from 'sequelize';
import { dropDatabases, POSTGRES_URL, uniqueNamespace } from './resources';

export interface ScratchDatabase {
  url: string;
  sequelize: Sequelize;
  drop(): Promise<void>;
}

/** A fresh, migrated database of its own for an integration test; drop() removes it. */
export async function createScratchDatabase(service: string, migrations: Migration[]): Promise<ScratchDatabase> {
  const name = `${uniqueNamespace()}_${service}`;
  const url = `${POSTGRES_URL}/${name}`;
  const sequelize = await openServiceDatabase({ url, poolMax: 5, migrations, log: () => undefined });
  return {
    url,
    sequelize,
    drop: async () => {
      await sequelize.close();
      await dropDatabases([name]);
    },
  };
}
