/**
 * `npm run search-quality`: how well typo-tolerant disease search finds what
 * was meant. Makes seeded misspellings of CTD disease names and, separately,
 * synonyms, sends them through the gateway and prints recall@1, recall@5 and
 * the latency. With GATEWAY_URL and API_KEY it uses that running system (which
 * must hold the CTD import); otherwise it starts one from dist/ and imports
 * the file into it first.
 *
 * Options: --per-set <n> (default 1000), --seed <n> (default 1), --file <CTD file>.
 */
import { parseArgs } from 'node:util';
import { createSequelize } from '@libs/db';
import { readCtdDiseases, type CtdDisease } from '@libs/source-formats';
import { sharedDataFile, startSystem } from '@libs/testing';
import { runImport } from '../import/run-import';
import { ctdSource } from '../import/sources/index';
import { measure, type QualityReport } from './measure';
import { makeQuerySets } from './query-sets';

async function readDiseases(file: string): Promise<CtdDisease[]> {
  const diseases: CtdDisease[] = [];
  for await (const row of readCtdDiseases(file)) if ('record' in row) diseases.push(row.record);
  return diseases;
}

function print(label: string, report: QualityReport): void {
  const pct = (share: number) => `${(share * 100).toFixed(2)}%`;
  process.stdout.write(
    `${label.padEnd(9)} ${report.queries} queries  recall@1 ${pct(report.recallAt1)}  recall@5 ${pct(report.recallAt5)}  ` +
      `median ${report.medianMs.toFixed(1)} ms  p95 ${report.p95Ms.toFixed(1)} ms\n`,
  );
  for (const { query, rank } of report.misses.slice(0, 8)) {
    process.stdout.write(`    ${rank < 0 ? 'not in top 5' : `rank ${rank + 1}`}: "${query.text}" (meant "${query.original}")\n`);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { 'per-set': { type: 'string', default: '1000' }, seed: { type: 'string', default: '1' }, file: { type: 'string' } },
  });
  const file = values.file ?? sharedDataFile('ctd', 'CTD_diseases.tsv.gz');
  if (!file) throw new Error('no CTD file: pass --file <CTD_diseases.tsv.gz> or set SHARED_DATA_DIR');
  const sets = makeQuerySets(await readDiseases(file), Number(values['per-set']), Number(values.seed));

  let gatewayUrl = process.env.GATEWAY_URL;
  let apiKey = process.env.API_KEY;
  let shutdown = async () => undefined as void;
  if (!gatewayUrl || !apiKey) {
    process.stderr.write('starting a system (set GATEWAY_URL and API_KEY to use a running one)\n');
    // Services log at warn, as in production: the test harness's debug logging would be part of the latency.
    const quiet = { LOG_LEVEL: 'warn' };
    const system = await startSystem({ env: { gateway: quiet, reference: quiet, finance: quiet, audit: quiet } });
    shutdown = () => system.shutdown();
    const sequelize = createSequelize(system.databaseUrl('reference'), 2);
    await runImport(sequelize, ctdSource, file, ({ line, reason }) => process.stderr.write(`${file}:${line}: ${reason}\n`));
    await sequelize.close();
    gatewayUrl = system.gatewayUrl;
    apiKey = system.keys.reader;
  }
  try {
    // Warm connections and caches so the first queries do not skew the latency.
    await measure(gatewayUrl, apiKey, sets.names.slice(0, 50));
    print('names', await measure(gatewayUrl, apiKey, sets.names));
    print('synonyms', await measure(gatewayUrl, apiKey, sets.synonyms));
  } finally {
    await shutdown();
  }
}

main().catch((error: Error) => {
  process.stderr.write(`search-quality: ${error.message}\n`);
  process.exit(1);
});
