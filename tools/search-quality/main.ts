/**
 * `npm run search-quality`: how well typo-tolerant disease search finds what
 * was meant. For each seed, makes seeded misspellings of CTD disease names and,
 * separately, synonyms, sends them through the gateway and measures recall@1,
 * recall@5 and the latency; prints a row per seed and kind, then the worst seed
 * of each figure, and exits non-zero when the worst seed misses the targets.
 * With GATEWAY_URL and API_KEY it uses that running system (which must hold the
 * CTD import); otherwise it starts one from dist/ and imports the file into it first.
 * Then type-ahead: seeded names and synonyms, each with one typo in its first
 * 6 characters, typed a character at a time into GET /api/v1/suggest; it
 * counts the characters until the disease is in the top 5, and the run fails
 * when the worst seed finds fewer within 6 characters than TYPE_AHEAD_TARGET.
 *
 * Options: --seeds <a,b,...> (default 11,12,13: seeds nothing was tuned on, see
 * docs/SEARCH.md), --per-set <n> queries per kind and seed (default 2000),
 * --misses <n> misses shown per seed and kind (default 5), --type-ahead <n> terms
 * typed per seed (default 500; 0: no type-ahead measure), --file <CTD file>.
 */
import { parseArgs } from 'node:util';
import { createSequelize } from '@libs/db';
import type { DiseaseRecord } from '@libs/contracts';
import { readCtdDiseases } from '@libs/source-formats';
import { sharedDataFile, startSystem } from '@libs/testing';
import { runImport } from '../import/run-import';
import { ctdSource } from '../import/sources/index';
import { measure, type QualityReport } from './measure';
import { makeQuerySets, makeTypeAheadSet } from './query-sets';
import { formatReport, KINDS, missedTargets, TARGETS, pct, type Kind, type SeedReport } from './report';
import { measureTypeAhead, TYPE_AHEAD_WITHIN, type TypeAheadReport } from './type-ahead';
import { formatTypeAheadReport, missedTypeAheadTarget, TYPE_AHEAD_TARGET, type TypeAheadSeed } from './type-ahead-report';

/** Search was tuned on seeds 1, 2 and 101-104; these it has never been measured on while changing it. */
const EVALUATION_SEEDS = '11,12,13';

async function readDiseases(file: string): Promise<DiseaseRecord[]> {
  const diseases: DiseaseRecord[] = [];
  for await (const row of readCtdDiseases(file)) if ('record' in row) diseases.push(row.record);
  return diseases;
}

function printMisses(seed: number, kind: Kind, report: QualityReport, count: number): void {
  for (const { query, rank } of report.misses.slice(0, count)) {
    process.stdout.write(
      `  seed ${seed} ${kind}: ${rank < 0 ? 'not in top 5' : `rank ${rank + 1}`}: "${query.text}" (meant "${query.original}")\n`,
    );
  }
}

function printTypeAheadMisses(seed: number, report: TypeAheadReport, count: number): void {
  for (const { query, chars } of report.misses.slice(0, count)) {
    process.stdout.write(
      `  seed ${seed} type-ahead: ${chars === 0 ? 'never in the top 5' : `${chars} characters`}: "${query.text}" (meant "${query.original}", ${query.diseaseName})\n`,
    );
  }
}

const isCount = (part: string) => /^\s*\d+\s*$/.test(part) && Number.isSafeInteger(Number(part));

function seedList(text: string): number[] {
  const parts = text.split(',');
  if (!parts.every(isCount)) throw new Error(`--seeds must be whole numbers separated by commas, not "${text}"`);
  return parts.map(Number);
}

function count(option: string, text: string, min: number): number {
  if (!isCount(text) || Number(text) < min) throw new Error(`--${option} must be a whole number of at least ${min}, not "${text}"`);
  return Number(text);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seeds: { type: 'string', default: EVALUATION_SEEDS },
      'per-set': { type: 'string', default: '2000' },
      misses: { type: 'string', default: '5' },
      'type-ahead': { type: 'string', default: '500' },
      file: { type: 'string' },
    },
  });
  const file = values.file ?? sharedDataFile('ctd', 'CTD_diseases.tsv.gz');
  if (!file) throw new Error('no CTD file: pass --file <CTD_diseases.tsv.gz> or set SHARED_DATA_DIR');
  const diseases = await readDiseases(file);
  const seeds = seedList(values.seeds);
  const perSet = count('per-set', values['per-set'], 1);
  const shownMisses = count('misses', values.misses, 0);
  const typeAheadTerms = count('type-ahead', values['type-ahead'], 0);

  let gatewayUrl = process.env.GATEWAY_URL;
  let apiKey = process.env.API_KEY;
  let shutdown = async () => undefined as void;
  if (!gatewayUrl || !apiKey) {
    process.stderr.write('starting a system (set GATEWAY_URL and API_KEY to use a running one)\n');
    // Services log at warn, as in production: the test harness's debug logging would be part of the latency.
    const system = await startSystem({ everyService: { LOG_LEVEL: 'warn' } });
    shutdown = () => system.shutdown();
    const sequelize = createSequelize(system.databaseUrl('reference'), 2);
    await runImport(sequelize, ctdSource, file, ({ line, reason }) => process.stderr.write(`${file}:${line}: ${reason}\n`));
    await sequelize.close();
    gatewayUrl = system.gatewayUrl;
    apiKey = system.keys.reader;
  }
  const reports: SeedReport[] = [];
  const typeAhead: TypeAheadSeed[] = [];
  try {
    for (const seed of seeds) {
      const sets = makeQuerySets(diseases, perSet, seed);
      // Warm connections and caches so the first queries do not skew the latency.
      if (reports.length === 0) await measure(gatewayUrl, apiKey, sets.names.slice(0, 50));
      const kinds = {} as Record<Kind, QualityReport>;
      for (const kind of KINDS) {
        kinds[kind] = await measure(gatewayUrl, apiKey, sets[kind]);
        printMisses(seed, kind, kinds[kind], shownMisses);
      }
      reports.push({ seed, kinds });
      if (typeAheadTerms > 0) {
        const report = await measureTypeAhead(gatewayUrl, apiKey, makeTypeAheadSet(diseases, typeAheadTerms, seed));
        printTypeAheadMisses(seed, report, shownMisses);
        typeAhead.push({ seed, report });
      }
    }
  } finally {
    await shutdown();
  }
  process.stdout.write(`\n${formatReport(reports)}`);
  if (typeAhead.length > 0) process.stdout.write(`\n${formatTypeAheadReport(typeAhead)}`);
  const typeAheadMiss = typeAhead.length > 0 ? missedTypeAheadTarget(typeAhead) : undefined;
  const missed = [...missedTargets(reports), ...(typeAheadMiss ? [typeAheadMiss] : [])];
  if (missed.length > 0) {
    process.stdout.write(`\nthe worst seed misses the targets:\n${missed.map((line) => `  ${line}\n`).join('')}`);
    process.exitCode = 1;
  } else {
    process.stdout.write(`\nthe worst seed meets recall@1 ${pct(TARGETS.recallAt1)} and recall@5 ${pct(TARGETS.recallAt5)} for every kind\n`);
    if (typeAhead.length > 0) process.stdout.write(`and type-ahead finds ${pct(TYPE_AHEAD_TARGET.withinShare)} or more within ${TYPE_AHEAD_WITHIN} characters\n`);
  }
}

main().catch((error: Error) => {
  process.stderr.write(`search-quality: ${error.message}\n`);
  process.exit(1);
});
