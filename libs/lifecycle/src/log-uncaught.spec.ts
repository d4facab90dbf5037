import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');

/** Runs a few lines in a fresh process with a logger that records anything uncaught. */
function runEscaping(escape: string) {
  const dir = mkdtempSync(join(tmpdir(), 'log-uncaught-'));
  const script = join(dir, 'escape.ts');
  writeFileSync(
    script,
    `import { createLogger } from '@libs/logging';
     import { logUncaughtErrors } from '${join(__dirname, 'log-uncaught')}';
     logUncaughtErrors(createLogger('test', 'info'));
     setTimeout(() => { ${escape} }, 10);`,
  );
  try {
    return spawnSync(join(ROOT, 'node_modules/.bin/tsx'), ['--tsconfig', 'tsconfig.base.json', script], { cwd: ROOT, encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('logUncaughtErrors', () => {
  it.each([
    ['a throw', "throw new Error('escaped')", 'uncaughtException'],
    ['an unhandled rejection', "void Promise.reject(new Error('escaped'))", 'unhandledRejection'],
  ])('leaves one fatal JSON line for %s, and the process still exits', (_what, escape, origin) => {
    const run = runEscaping(escape);
    expect(run.status).toBe(1);
    const fatal = run.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(fatal).toEqual([
      expect.objectContaining({ level: 'fatal', origin, err: expect.objectContaining({ message: 'escaped' }), msg: 'uncaught exception; the process exits' }),
    ]);
  });
});
