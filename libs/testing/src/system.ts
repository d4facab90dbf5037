import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { eventKeyEnv, generateEventSecrets, type EventSecrets } from '@libs/bus';
import type { Role } from '@libs/contracts';
import { HealthProbe } from '@libs/grpc';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from '@libs/lifecycle';
import {
  declarationOf,
  GATEWAY_NAME,
  GRPC_SERVICE_NAMES,
  SERVICE_NAMES,
  servicesOf,
  TOPOLOGY,
  type GrpcServiceName,
  type Placement,
  type ServiceName,
} from '@libs/topology';
import { raiseKeyLimits } from './generous-limits';
import { deleteBusTopology, dropDatabases, dropStaleTestDatabases, freePort, uniqueNamespace } from './resources';
import { instanceEnv, runDatabaseUrl } from './system-wiring';
import { waitFor } from './wait-for';

const ROOT = resolve(__dirname, '../../..');

export interface RunningSystem {
  namespace: string;
  gatewayUrl: string;
  /** A fresh key per role, issued the way `npm start` issues them, with generous limits (generous-limits.ts). */
  keys: Record<Role, string>;
  /** Each producer's event-signing secret, generated for this run (signed-events.ts signs as a producer with it). */
  eventSecrets: EventSecrets;
  databaseUrl(service: ServiceName): string;
  /**
   * Starts a service instance (1 unless told) that is not running (again, with the same database and
   * RabbitMQ names), and waits until it answers health checks. `env` overrides variables for this start only.
   */
  start(service: ServiceName, options?: { instance?: number; env?: Record<string, string> }): Promise<void>;
  /** Sends SIGTERM (or another signal, e.g. SIGKILL) and resolves with the exit code once the process ends. */
  stop(service: ServiceName, signal?: NodeJS.Signals, instance?: number): Promise<number | null>;
  logs(service: ServiceName, instance?: number): string;
  /** Where an instance serves Prometheus metrics: its own metrics port, never the gateway's public one. */
  metricsUrl(service: ServiceName, instance?: number): string;
  /** The process id of a running service instance. */
  pid(service: ServiceName, instance?: number): number | undefined;
  /** Where a gRPC service instance listens (host:port), for tests that call it directly. */
  grpcAddress(service: GrpcServiceName, instance?: number): string;
  /** Stops everything and removes the run's databases and RabbitMQ names. */
  shutdown(): Promise<void>;
}

/** A service process that ended before it answered health checks, with the end of its output. */
class StartupExit extends Error {
  constructor(
    key: string,
    code: number | null,
    readonly output: string,
  ) {
    super(`${key} exited during start-up (code ${code}): ${output.slice(-500)}`);
  }
}

function entryPoint(service: ServiceName): string {
  const path = join(ROOT, 'dist/apps', service, 'main.cjs');
  if (!existsSync(path)) throw new Error(`${path} is missing: run npm run build first`);
  return path;
}

export interface SystemOptions {
  /** Variables given to every service: a new one gets them too. */
  everyService?: Record<string, string>;
  /** Variables of one service, over those of `everyService`. */
  env?: Partial<Record<ServiceName, Record<string, string>>>;
  /**
   * How many instances of a gRPC service to run (default 1). They share the
   * service's database and queue, as scaled instances do, and the gateway
   * spreads its calls over all of them.
   */
  instances?: Partial<Record<GrpcServiceName, number>>;
  /**
   * Only these gRPC services (each with its instances), and no gateway: for tests that call services directly
   * and need not pay for the rest. `keys` is then empty.
   */
  only?: GrpcServiceName[];
  /**
   * gRPC services given their ports, database and RabbitMQ names but not started: the test starts them (`start`),
   * e.g. to show what happens before a service first runs. Only with `only`, as the gateway needs every service.
   */
  notStarted?: GrpcServiceName[];
  /** Node flags added to every service's own (e.g. --cpu-prof, which NODE_OPTIONS may not carry). */
  nodeFlags?: string[];
}

/**
 * Starts the real processes of the declared services (libs/topology) from dist/, on free ports, with their own
 * databases (<namespace>_<database>) and RabbitMQ names (<namespace>.*), so a test run never touches
 * `npm start`'s data or another run's.
 */
export async function startSystem(options: SystemOptions = {}): Promise<RunningSystem> {
  if (options.notStarted?.length && !options.only) throw new Error('notStarted needs `only`: the gateway waits for every service');
  await dropStaleTestDatabases();
  const namespace = uniqueNamespace();
  const logDir = join(ROOT, 'test-artifacts', namespace);
  mkdirSync(logDir, { recursive: true });
  const wanted = (service: ServiceName) => !options.only || (service !== GATEWAY_NAME && options.only.includes(service));
  const countOf = (service: ServiceName) =>
    !wanted(service) ? 0 : service === GATEWAY_NAME ? 1 : (options.instances?.[service] ?? 1);
  // Every instance gets its own ports, the metrics port included, so runs never clash with `npm start` or each other.
  const instancePorts = {} as Record<ServiceName, Placement['ports'][]>;
  for (const service of SERVICE_NAMES) {
    instancePorts[service] = [];
    while (instancePorts[service].length < countOf(service)) instancePorts[service].push({ main: await freePort(), metrics: await freePort() });
  }
  const gatewayUrl = () => `http://127.0.0.1:${instancePorts[GATEWAY_NAME][0]?.main}`;
  const instanceKey = (service: ServiceName, instance: number) => (instance === 1 ? service : `${service}-${instance}`);
  const databaseUrl = (service: ServiceName) => runDatabaseUrl(namespace, declarationOf(TOPOLOGY, service).database);
  // New keys each run, as `npm start` makes its own: a producer gets its secret, a consumer every public key.
  const eventSecrets = generateEventSecrets();
  const envOf = (service: ServiceName, instance = 1): Record<string, string> => ({
    ...instanceEnv(TOPOLOGY, { namespace, ports: instancePorts }, service, instance),
    ...eventKeyEnv(eventSecrets, service),
    ...options.everyService,
    ...options.env?.[service],
  });

  const processes = new Map<string, ChildProcess>();

  async function start(
    service: ServiceName,
    { instance = 1, env }: { instance?: number; env?: Record<string, string> } = {},
  ): Promise<void> {
    const key = instanceKey(service, instance);
    if (processes.has(key)) throw new Error(`${key} is already running`);
    const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...(options.nodeFlags ?? []), entryPoint(service)], {
      env: { ...process.env, ...SERVICE_ENV, ...envOf(service, instance), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const logFile = join(logDir, `${key}.log`);
    const log = createWriteStream(logFile, { flags: 'a' });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    processes.set(key, child);
    child.once('exit', () => {
      if (processes.get(key) === child) processes.delete(key);
    });
    // A process that dies during start-up fails it at once (its output read to the end), not after the wait.
    let output = '';
    let exited = false;
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8_192));
    for (const stream of [child.stdout, child.stderr]) stream?.on('data', keep);
    const died = new Promise<never>((_, reject) =>
      child.once('close', (code) => {
        exited = true;
        reject(new StartupExit(key, code, output));
      }),
    );
    died.catch(() => undefined);
    const probe = service === GATEWAY_NAME ? undefined : new HealthProbe(`127.0.0.1:${instancePorts[service][instance - 1].main}`);
    const healthy = probe
      ? probe.waitUntilServing(60_000)
      : waitFor('/healthz', async () => exited || (await fetch(`${gatewayUrl()}/healthz`)).ok || undefined, 30_000);
    try {
      await Promise.race([healthy, died]);
    } catch (error) {
      if (error instanceof StartupExit) throw error;
      throw new Error(`${key} did not become healthy (log: ${logFile}): ${(error as Error).message}`);
    } finally {
      probe?.close();
      for (const stream of [child.stdout, child.stderr]) stream?.off('data', keep);
    }
  }

  function stopChild(child: ChildProcess | undefined, signal: NodeJS.Signals): Promise<number | null> {
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve(null);
    return new Promise((resolveExit) => {
      child.once('exit', (code) => resolveExit(code));
      child.kill(signal);
    });
  }

  const stop = (service: ServiceName, signal: NodeJS.Signals = 'SIGTERM', instance = 1) =>
    stopChild(processes.get(instanceKey(service, instance)), signal);

  /**
   * The first start of an instance, on other ports if its own were taken meanwhile: a port is chosen free, and
   * another test worker may bind it first (EADDRINUSE). Only here: the gRPC services start before the gateway is
   * given their addresses, and the gateway's own address is read from its ports each time (gatewayUrl).
   */
  async function firstStart(service: ServiceName, instance: number): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await start(service, { instance });
      } catch (error) {
        if (!(error instanceof StartupExit) || !error.output.includes('EADDRINUSE') || attempt >= 3) throw error;
        instancePorts[service][instance - 1] = { main: await freePort(), metrics: await freePort() };
      }
    }
  }

  let keys = {} as Record<Role, string>;
  try {
    await Promise.all(
      GRPC_SERVICE_NAMES.filter((service) => !options.notStarted?.includes(service)).flatMap((service) =>
        Array.from({ length: countOf(service) }, (_, i) => firstStart(service, i + 1)),
      ),
    );
    if (wanted(GATEWAY_NAME)) {
      await firstStart(GATEWAY_NAME, 1);
      const printed = execFileSync(process.execPath, [join(ROOT, 'dist/apps/gateway/cli/demo-keys.cjs')], {
        env: { ...process.env, ...envOf(GATEWAY_NAME) },
        encoding: 'utf8',
      });
      keys = Object.fromEntries([...printed.matchAll(/^demo (\w+) key: (\S+)$/gm)].map(([, role, key]) => [role, key])) as Record<Role, string>;
      await raiseKeyLimits(gatewayUrl(), keys.admin, Object.values(keys));
    }
  } catch (error) {
    // The caller gets no system to shut down: the services already up (and their database connections) go now.
    await Promise.all([...processes.values()].map((child) => stopChild(child, 'SIGKILL')));
    throw error;
  }

  return {
    namespace,
    eventSecrets,
    gatewayUrl: gatewayUrl(),
    keys,
    databaseUrl,
    start,
    stop,
    logs: (service, instance = 1) => readFileSync(join(logDir, `${instanceKey(service, instance)}.log`), 'utf8'),
    metricsUrl: (service, instance = 1) => `http://127.0.0.1:${instancePorts[service][instance - 1].metrics}/metrics`,
    pid: (service, instance = 1) => processes.get(instanceKey(service, instance))?.pid,
    grpcAddress: (service, instance = 1) => `127.0.0.1:${instancePorts[service][instance - 1].main}`,
    async shutdown() {
      await Promise.all([...processes.values()].map((child) => stopChild(child, 'SIGTERM')));
      await dropDatabases(servicesOf(TOPOLOGY).map(({ database }) => `${namespace}_${database}`));
      await deleteBusTopology(namespace);
    },
  };
}
