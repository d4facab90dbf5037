/**
 * The OpenAPI document, generated from the operation declarations exactly as /openapi.json serves it
 * (servers "/"), without starting anything:
 * - `tsx apps/gateway/src/cli/openapi.ts write <file>` writes it (libs/sdk generates its types from it);
 * - `tsx apps/gateway/src/cli/openapi.ts lint` runs `redocly lint` with the recommended rules on it and
 *   fails on any error or warning (a step of `npm run lint`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AREAS } from '../areas';
import { apiVersion, parseChangelog } from '../platform/changelog/parse-changelog';
import { buildOpenApiDocument } from '../platform/openapi/document';
import { describedApi } from '../platform/routing/area';

const ROOT = join(__dirname, '../../../..');

function writeDocument(file: string): void {
  const releases = parseChangelog(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8'));
  writeFileSync(file, `${JSON.stringify(buildOpenApiDocument(describedApi(AREAS), apiVersion(releases)), null, 2)}\n`);
}

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }[];
}

function lint(): number {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  try {
    const file = join(dir, 'openapi.json');
    writeDocument(file);
    const cli = require.resolve('@redocly/cli/bin/cli.js');
    const run = spawnSync(process.execPath, [cli, 'lint', '--extends=recommended', '--format=json', file], { encoding: 'utf8' });
    const report = JSON.parse(run.stdout || '{}') as Partial<LintReport>;
    if (!report.totals) {
      process.stderr.write(`redocly lint gave no report:\n${run.stderr}\n`);
      return 1;
    }
    for (const p of report.problems ?? []) process.stdout.write(`${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}\n`);
    const { errors, warnings } = report.totals;
    process.stdout.write(`redocly lint (recommended) on the generated document: ${errors} errors, ${warnings} warnings\n`);
    return errors + warnings === 0 ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const [command, file] = process.argv.slice(2);
if (command === 'write' && file) writeDocument(file);
else if (command === 'lint') process.exitCode = lint();
else {
  process.stderr.write('usage: openapi.ts write <file> | lint\n');
  process.exitCode = 2;
}
