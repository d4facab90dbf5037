import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

// tsx's loader in the baseline's own process (not its CLI, which runs the script in a child): `pid` is then the
// process that serves, whose CPU and memory the benchmark reads.
const TSX_LOADER = pathToFileURL(require.resolve('tsx')).href;

export interface Baseline {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts tools/bench/baselines/<name>.ts as its own process; resolves once it prints its port. */
export function startBaseline(name: string, env: Record<string, string> = {}): Promise<Baseline> {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, join(__dirname, `${name}.ts`)], {
    env: { ...process.env, ...env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const pid = child.pid;
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`baseline ${name} exited with ${code} before listening`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const port = /^listening (\d+)$/.exec(line)?.[1];
      if (!port || pid === undefined) return;
      child.removeAllListeners('exit');
      resolve({
        url: `http://127.0.0.1:${port}`,
        pid,
        stop: () =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
