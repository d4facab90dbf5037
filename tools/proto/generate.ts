/**
 * `npm run proto` regenerates libs/contracts/src/generated from proto/ with buf
 * and ts-proto. `--check` generates into a scratch folder instead and fails when
 * the committed code differs, so stale contracts cannot slip through CI.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = join(__dirname, '..', '..');
const generatedDir = join(root, 'libs/contracts/src/generated');
const buf = join(root, 'node_modules/.bin/buf');

function generate(outDir: string): void {
  execFileSync(buf, ['lint'], { cwd: root, stdio: 'inherit' });
  execFileSync(buf, ['generate', '--clean', '-o', outDir], { cwd: root, stdio: 'inherit' });
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

function check(): void {
  const scratch = mkdtempSync(join(tmpdir(), 'proto-check-'));
  try {
    generate(scratch);
    const fresh = join(scratch, 'libs/contracts/src/generated');
    const want = listFiles(fresh).map((f) => relative(fresh, f)).sort();
    const have = listFiles(generatedDir).map((f) => relative(generatedDir, f)).sort();
    const stale = [
      ...want.filter((f) => !have.includes(f) || readFileSync(join(fresh, f), 'utf8') !== readFileSync(join(generatedDir, f), 'utf8')),
      ...have.filter((f) => !want.includes(f)),
    ];
    if (stale.length > 0) {
      console.error(`generated contracts are out of date (${stale.join(', ')}): run npm run proto`);
      process.exit(1);
    }
    console.log('generated contracts are up to date');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv.includes('--check')) {
  check();
} else {
  generate(root);
  console.log(`generated ${listFiles(generatedDir).length} files in ${relative(root, generatedDir)}`);
}
