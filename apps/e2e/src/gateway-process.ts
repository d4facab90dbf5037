import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort, waitFor } from '@libs/testing';

const ROOT = resolve(__dirname, '../../..');

export interface GatewayProcess {
  url: string;
  stop(): Promise<void>;
}

/**
 * One more gateway process from dist/, beside the ones startSystem runs: a
 * second instance on the same database, or one with a different NODE_ENV.
 * Its log goes to test-artifacts/<logName>.log. Its RabbitMQ names (the identity
 * outbox's) are prefixed with the log name's first segment (the run's namespace)
 * unless `env` names others.
 */
export async function startGatewayProcess(logName: string, env: Record<string, string>): Promise<GatewayProcess> {
  const port = await freePort();
  mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
  const log = createWriteStream(join(ROOT, 'test-artifacts', `${logName}.log`));
  const child = spawn(process.execPath, [join(ROOT, 'dist/apps/gateway/main.cjs')], {
    // No metrics endpoint unless asked: the default port may be taken by another gateway.
    env: { ...process.env, LOG_LEVEL: 'debug', HOST: '127.0.0.1', METRICS_PORT: '0', AMQP_NAMESPACE: `${logName.split('/')[0]}.`, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`the extra gateway to answer (log: test-artifacts/${logName}.log)`, async () => {
    if (child.exitCode !== null) throw new Error(`the gateway exited with code ${child.exitCode}`);
    return (await fetch(`${url}/healthz`)).ok ? true : undefined;
  }, 30_000);
  return {
    url,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
