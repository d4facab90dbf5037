import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RunningSystem } from '@libs/testing';
import { generateTransactions } from '../generate/transactions';

const ROOT = resolve(__dirname, '../..');
const DATA = process.env.SHARED_DATA_DIR ?? resolve(ROOT, '../shared/data');
const TSX = require.resolve('tsx/cli');

/** Every public dataset, as `npm run import -- <source> <file>` takes it. */
const SOURCES: [source: string, file: string][] = [['ctd', 'ctd/CTD_diseases.tsv.gz']];

function runImport(databaseUrl: string, source: string, file: string): Promise<void> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [TSX, join(ROOT, 'tools/import/main.ts'), source, file],
      { env: { ...process.env, DATABASE_URL: databaseUrl }, maxBuffer: 64 * 1024 * 1024 },
      (error, _out, err) => (error ? fail(new Error(`import ${source} failed: ${err || error.message}`)) : done()),
    );
  });
}

/**
 * The data a run measures against. Full: the public datasets imported into the
 * run's reference database, and generated transactions. Smoke: the default
 * dataset the services loaded on start, and a thousand transactions.
 */
export async function loadFullData(
  system: RunningSystem,
  options: { smoke: boolean; transactions: number; log: (line: string) => void },
): Promise<void> {
  if (!options.smoke) {
    if (!existsSync(DATA)) throw new Error(`the full datasets are not at ${DATA}; set SHARED_DATA_DIR or use --smoke`);
    for (const [source, file] of SOURCES) {
      const started = Date.now();
      await runImport(system.databaseUrl('reference'), source, join(DATA, file));
      options.log(`imported ${source} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  }
  await generateTransactions(system.databaseUrl('finance'), options.transactions, options.log);
}
