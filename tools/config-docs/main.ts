/**
 * Writes the README's configuration table from each service's configSchema (`npm run docs:config`), between its
 * marker comments; with `--check` (a step of `npm run lint`) it only fails when the table there is stale.
 * The services are the declared ones (libs/topology), so a new one is in the table without a line here.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_NAMES } from '@libs/topology';
import { configSchemaOf } from '../topology/service-configs';
import { configTable } from './config-table';

const ROOT = join(__dirname, '../..');
const README = join(ROOT, 'README.md');
const START = '<!-- configuration table: written by `npm run docs:config` from each service\'s configSchema; edit those -->';
const END = '<!-- end of the configuration table -->';

const readme = readFileSync(README, 'utf8');
const [start, end] = [readme.indexOf(START), readme.indexOf(END)];
if (start < 0 || end < start) throw new Error(`README.md has no ${START} … ${END} markers`);
const written = `${readme.slice(0, start + START.length)}\n${configTable(SERVICE_NAMES.map((service) => ({ service, schema: configSchemaOf(service) })))}\n${readme.slice(end)}`;

if (process.argv.includes('--check')) {
  if (written !== readme) {
    process.stderr.write("README.md's configuration table is stale: run `npm run docs:config` and commit the result\n");
    process.exitCode = 1;
  } else process.stdout.write("README.md's configuration table matches the services' configSchema\n");
} else writeFileSync(README, written);
