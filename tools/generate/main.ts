/**
 * `npm run generate -- diseases <n>` / `npm run generate -- transactions <n>`:
 * adds n synthetic rows, shaped like real ones, to the database DATABASE_URL
 * names (a migrated reference or finance database), set-based inside
 * PostgreSQL: a million rows take seconds, not hours.
 */
import { generateDiseases } from './diseases';
import { generateTransactions } from './transactions';

const GENERATORS = { diseases: generateDiseases, transactions: generateTransactions };

const USAGE = 'usage: DATABASE_URL=postgres://… npm run generate -- <diseases|transactions> <count>\n';

async function main(): Promise<number> {
  const [kind, amount, ...extra] = process.argv.slice(2);
  const count = Number(amount);
  const databaseUrl = process.env.DATABASE_URL;
  if (!(kind in GENERATORS) || !Number.isInteger(count) || count < 1 || extra.length > 0 || !databaseUrl) {
    process.stderr.write(USAGE);
    return 2;
  }
  const started = Date.now();
  await GENERATORS[kind as keyof typeof GENERATORS](databaseUrl, count, (line) => process.stdout.write(`${line}\n`));
  process.stdout.write(`${kind}: ${count.toLocaleString('en')} rows in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`generate: failed: ${error.message}\n`);
    process.exit(1);
  },
);
