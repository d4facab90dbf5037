import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadResult, LoadSpec } from './load-spec';

const WORKER = join(__dirname, 'worker.ts');
const TSX = require.resolve('tsx/cli');

/** Drives `spec.url` from a separate process and returns what it measured. */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-'));
  const file = join(dir, 'spec.json');
  writeFileSync(file, JSON.stringify(spec));
  try {
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, [TSX, WORKER, file], { maxBuffer: 16 * 1024 * 1024 }, (error, out, err) =>
        error ? reject(new Error(`load worker failed: ${err || error.message}`)) : resolve(out),
      );
    });
    return JSON.parse(stdout) as LoadResult;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
