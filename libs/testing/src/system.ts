import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HealthProbe } from '@libs/grpc';
import { deleteBusTopology, dropDatabases, dropStaleTestDatabases, freePort, AMQP_URL, POSTGRES_URL, uniqueNamespace } from './resources';
import { waitFor } from './wait-for';

export type ServiceName = 'reference' | 'finance' | 'audit' | 'gateway';
type Role = 'reader' | 'student' | 'bursar' | 'admin';

const ROOT = resolve(__dirname, '../../..');
const GRPC_SERVICES = ['reference', 'finance', 'audit'] as const;

export interface RunningSystem {
  namespace: string;
  gatewayUrl: string;
  /** A fresh key per role, issued the way `npm start` issues them. */
  keys: Record<Role, string>;
  databaseUrl(service: ServiceName): string;
  /**
   * Starts a service that is not running (again, with the same database and RabbitMQ names),
   * and waits until it answers health checks. `env` overrides variables for this start only.
   */
  start(service: ServiceName, options?: { env?: Record<string, string> }): Promise<void>;
  /** Sends SIGTERM (or another signal, e.g. SIGKILL) and resolves with the exit code once the process ends. */
  stop(service: ServiceName, signal?: NodeJS.Signals): Promise<number | null>;
  logs(service: ServiceName): string;
  /** Stops everything and removes the run's databases and RabbitMQ names. */
  shutdown(): Promise<void>;
}

function entryPoint(service: ServiceName): string {
  const path = join(ROOT, 'dist/apps', service, 'main.cjs');
  if (!existsSync(path)) throw new Error(`${path} is missing: run npm run build first`);
  return path;
}

/**
 * Starts the four real service processes from dist/, on free ports, with their
 * own databases (<namespace>_<service>) and RabbitMQ names (<namespace>.*), so
 * a test run never touches `npm start`'s data or another run's.
 */
export async function startSystem(options: { env?: Partial<Record<ServiceName, Record<string, string>>> } = {}): Promise<RunningSystem> {
  await dropStaleTestDatabases();
  const namespace = uniqueNamespace();
  const logDir = join(ROOT, 'test-artifacts', namespace);
  mkdirSync(logDir, { recursive: true });
  const ports = {
    reference: await freePort(),
    finance: await freePort(),
    audit: await freePort(),
    gateway: await freePort(),
  };
  const databaseUrl = (service: ServiceName) => `${POSTGRES_URL}/${namespace}_${service}`;
  const common = { LOG_LEVEL: 'debug', AMQP_URL, AMQP_NAMESPACE: `${namespace}.`, NODE_ENV: 'test' };
  const envOf = (service: ServiceName): Record<string, string> => ({
    ...common,
    DATABASE_URL: databaseUrl(service),
    ...(service === 'gateway'
      ? {
          PORT: String(ports.gateway),
          HOST: '127.0.0.1',
          REFERENCE_ADDR: `127.0.0.1:${ports.reference}`,
          FINANCE_ADDR: `127.0.0.1:${ports.finance}`,
          AUDIT_ADDR: `127.0.0.1:${ports.audit}`,
        }
      : { GRPC_PORT: String(ports[service]), GRPC_HOST: '127.0.0.1' }),
    ...options.env?.[service],
  });

  const processes = new Map<ServiceName, ChildProcess>();

  async function start(service: ServiceName, startOptions: { env?: Record<string, string> } = {}): Promise<void> {
    if (processes.has(service)) throw new Error(`${service} is already running`);
    const child = spawn(process.execPath, ['--enable-source-maps', entryPoint(service)], {
      env: { ...process.env, ...envOf(service), ...startOptions.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const log = createWriteStream(join(logDir, `${service}.log`), { flags: 'a' });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    processes.set(service, child);
    child.once('exit', () => {
      if (processes.get(service) === child) processes.delete(service);
    });
    const logFile = join(logDir, `${service}.log`);
    if (service === 'gateway') {
      await waitFor(`the gateway to become healthy (log: ${logFile})`, async () => {
        if (!processes.has(service)) throw new Error('the gateway exited during start-up');
        return (await fetch(`http://127.0.0.1:${ports.gateway}/healthz`)).ok ? true : undefined;
      }, 30_000);
      return;
    }
    const probe = new HealthProbe(`127.0.0.1:${ports[service]}`);
    try {
      await probe.waitUntilServing(30_000);
    } catch (error) {
      throw new Error(`${service} did not become healthy (log: ${logFile}): ${(error as Error).message}`);
    } finally {
      probe.close();
    }
  }

  function stop(service: ServiceName, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const child = processes.get(service);
    if (!child) return Promise.resolve(null);
    return new Promise((resolveExit) => {
      child.once('exit', (code) => resolveExit(code));
      child.kill(signal);
    });
  }

  await Promise.all(GRPC_SERVICES.map((service) => start(service)));
  await start('gateway');
  const printed = execFileSync(process.execPath, [join(ROOT, 'dist/apps/gateway/cli/demo-keys.cjs')], {
    env: { ...process.env, ...envOf('gateway') },
    encoding: 'utf8',
  });
  const keys = Object.fromEntries(
    [...printed.matchAll(/^demo (\w+) key: (\S+)$/gm)].map(([, role, key]) => [role, key]),
  ) as Record<Role, string>;

  return {
    namespace,
    gatewayUrl: `http://127.0.0.1:${ports.gateway}`,
    keys,
    databaseUrl,
    start,
    stop,
    logs: (service) => readFileSync(join(logDir, `${service}.log`), 'utf8'),
    async shutdown() {
      await Promise.all([...processes.keys()].map((service) => stop(service)));
      await dropDatabases((['reference', 'finance', 'audit', 'gateway'] as const).map((s) => `${namespace}_${s}`));
      await deleteBusTopology(namespace);
    },
  };
}
