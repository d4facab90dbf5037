/**
 * `npm run import -- <source> <file>`: loads a public dataset into the
 * reference database (DATABASE_URL), migrating it first. Rejected rows are
 * listed on stderr with their line numbers; the exit code is non-zero only
 * when the import as a whole could not run.
 */
import { existsSync } from 'node:fs';
import { openServiceDatabase } from '@libs/db';
import { migrations } from '@libs/reference-db';
import { readImportConfig } from './config';
import { runImport } from './run-import';
import { SOURCES } from './sources/index';

function usage(): string {
  const lines = Object.values(SOURCES).map((source) => `  ${source.name.padEnd(12)} ${source.describe}`);
  return `usage: npm run import -- <source> <file>\n\nsources:\n${lines.join('\n')}\n`;
}

async function main(): Promise<number> {
  const [sourceName, file, ...extra] = process.argv.slice(2);
  const source = sourceName ? SOURCES[sourceName] : undefined;
  if (!source || !file || extra.length > 0) {
    process.stderr.write(sourceName && !source ? `import: unknown source "${sourceName}"\n\n${usage()}` : usage());
    return 2;
  }
  if (!existsSync(file)) {
    process.stderr.write(`import: ${file}: no such file\n`);
    return 2;
  }
  const config = readImportConfig();
  const sequelize = await openServiceDatabase({ url: config.DATABASE_URL, poolMax: 2, migrations, log: () => undefined });
  try {
    const result = await runImport(sequelize, source, file, ({ line, reason }) =>
      process.stderr.write(`${file}:${line}: rejected: ${reason}\n`),
    );
    process.stdout.write(`${source.name}: ${result.imported} rows imported, ${result.rejected} rejected\n`);
    return 0;
  } finally {
    await sequelize.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`import: failed: ${error.message}\n`);
    process.exit(1);
  },
);
