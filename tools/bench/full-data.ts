import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { sharedDataFile, type RunningSystem } from '@libs/testing';
import { generateDiseases } from '../generate/diseases';
import { generateTransactions } from '../generate/transactions';

const ROOT = resolve(__dirname, '../..');
const TSX = require.resolve('tsx/cli');

/** Every public dataset, as `npm run import -- <source> <file>` takes it (docs/IMPORT.md), in sharedDataDir(). */
const SOURCES: [source: string, file: string[]][] = [
  ['ctd', ['ctd', 'CTD_diseases.tsv.gz']],
  ['atc', ['atc', 'who-atc-ddd-2026-04-25.csv']],
  ['drugsatfda', ['drugsatfda', 'Products.txt']],
  ['indications', ['indications', 'indications.tsv']],
  ['food', ['food', 'drugbank_drug_food_interactions.csv']],
];

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
 * run's reference database, generated transactions and, when asked, generated
 * diseases on top of CTD's. Smoke: the default dataset the services loaded on
 * start, and a thousand transactions.
 */
export async function loadFullData(
  system: RunningSystem,
  options: { smoke: boolean; transactions: number; diseases: number; log: (line: string) => void },
): Promise<void> {
  if (!options.smoke) {
    for (const [source, parts] of SOURCES) {
      const file = sharedDataFile(...parts);
      if (!file) throw new Error(`${join(...parts)} is not in the shared data folder; set SHARED_DATA_DIR or use --smoke`);
      const started = Date.now();
      await runImport(system.databaseUrl('reference'), source, file);
      options.log(`imported ${source} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  }
  if (options.diseases > 0) await generateDiseases(system.databaseUrl('reference'), options.diseases, options.log);
  await generateTransactions(system.databaseUrl('finance'), options.transactions, options.log);
}
