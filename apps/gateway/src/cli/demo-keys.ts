/**
 * `node dist/apps/gateway/demo-keys.js`: for local development only. Prepares the
 * gateway database and prints one ready key per role, a line each, as
 * `demo <role> key: <key>`, so that people and scripts can pick them up.
 */
import { openServiceDatabase } from '@libs/db';
import { issueDemoKeys } from '../identity/demo-users';
import { readConfig } from '../config';
import { migrations } from '../migrations';

async function main(): Promise<void> {
  if (process.env.NODE_ENV === 'production') {
    process.stderr.write('demo-keys: refusing to create demo users when NODE_ENV=production\n');
    process.exit(1);
  }
  const config = readConfig();
  const sequelize = await openServiceDatabase({ url: config.DATABASE_URL, poolMax: 2, migrations, log: () => undefined });
  try {
    const keys = await issueDemoKeys(sequelize);
    for (const [role, key] of Object.entries(keys)) process.stdout.write(`demo ${role} key: ${key}\n`);
  } finally {
    await sequelize.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`demo-keys: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
