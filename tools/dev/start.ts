/**
 * `npm start`: runs the four built services on this machine with their default
 * configuration (databases are created, migrated and given the default data as
 * each service starts), prints the gateway URL and a ready key per role, and
 * stops everything cleanly on Ctrl-C. Logs go to tmp/logs/<service>.log and,
 * in short form, to the terminal.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { HealthProbe } from '@libs/grpc';
import { SERVICE_NODE_FLAGS } from '@libs/lifecycle';
import { waitFor } from '@libs/testing';

const ROOT = join(__dirname, '..', '..');
const LOG_DIR = join(ROOT, 'tmp', 'logs');
const GRPC_SERVICES = { reference: 50051, finance: 50052, audit: 50053 } as const;
const GATEWAY_PORT = 3000;
const children = new Map<string, ChildProcess>();
let stopping = false;

function short(service: string, line: string): string {
  try {
    const entry = JSON.parse(line) as { level?: string; msg?: string; err?: { message?: string } };
    return `[${service}] ${entry.level ?? ''} ${entry.msg ?? ''}${entry.err?.message ? `: ${entry.err.message}` : ''}`;
  } catch {
    return `[${service}] ${line}`;
  }
}

function run(service: string): ChildProcess {
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, join(ROOT, 'dist/apps', service, 'main.cjs')], {
    env: { NODE_ENV: 'development', ...process.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(join(LOG_DIR, `${service}.log`), { flags: 'a' });
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    stream.pipe(log);
    createInterface({ input: stream }).on('line', (line) => {
      // Request logs would drown the terminal; they stay in the log file.
      if (!line.includes('"req":')) console.log(short(service, line));
    });
  }
  child.once('exit', (code, signal) => {
    children.delete(service);
    if (!stopping) {
      console.error(`${service} exited unexpectedly (${signal ?? `code ${code}`}); see ${join(LOG_DIR, `${service}.log`)}`);
      void stopAll(1);
    }
  });
  children.set(service, child);
  return child;
}

async function stopAll(exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log('stopping…');
  await Promise.all(
    [...children.values()].map(
      (child) =>
        new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
  process.exit(exitCode);
}

async function main(): Promise<void> {
  mkdirSync(LOG_DIR, { recursive: true });
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  for (const service of Object.keys(GRPC_SERVICES)) run(service);
  await Promise.all(
    Object.values(GRPC_SERVICES).map(async (port) => {
      const probe = new HealthProbe(`127.0.0.1:${port}`);
      try {
        await probe.waitUntilServing(120_000);
      } finally {
        probe.close();
      }
    }),
  );
  run('gateway');
  const gatewayUrl = `http://localhost:${GATEWAY_PORT}`;
  await waitFor('the gateway to become ready', async () => ((await fetch(`${gatewayUrl}/readyz`)).ok ? true : undefined), 60_000);

  console.log(`
The system is up.

gateway: ${gatewayUrl}
dashboard: ${gatewayUrl}/dashboard/`);
  // Demo users and keys are a development convenience; in production nothing is printed and none exist.
  if (process.env.NODE_ENV === 'production') {
    console.log('\nNODE_ENV=production: no demo keys. Sign up on the dashboard, or set BOOTSTRAP_ADMIN_EMAIL/PASSWORD.');
  } else {
    const keys = execFileSync(process.execPath, [join(ROOT, 'dist/apps/gateway/cli/demo-keys.cjs')], { encoding: 'utf8' });
    const adminKey = /^demo admin key: (\S+)$/m.exec(keys)?.[1];
    console.log(`${keys.trim()}

Try:
  curl -H "Authorization: Bearer ${adminKey}" "${gatewayUrl}/api/v1/diseases?n=diabtes%20melitus&r=false"`);
  }
  console.log('\nPress Ctrl-C to stop.');
}

main().catch((error: unknown) => {
  console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
  void stopAll(1);
});
