import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { HealthProbe } from '@libs/grpc';
import { deleteBusTopology, dropDatabases, freePort, uniqueNamespace, waitFor, AMQP_URL, POSTGRES_URL } from '@libs/testing';

/*
 * `npm start` as users run it (tsx tools/dev/start.ts over the built dist/), moved aside by its START_*
 * variables so that it runs beside a developer's own `npm start` and other test runs. Each service in turn is
 * killed with SIGKILL: it must answer again within 10 s while the others keep their process and keep answering.
 */
const ROOT = join(__dirname, '..', '..');
const GRPC_SERVICES = ['reference', 'finance', 'audit'] as const;
type Service = (typeof GRPC_SERVICES)[number] | 'gateway';
const SERVICES: Service[] = [...GRPC_SERVICES, 'gateway'];
const RECOVERY_MS = 10_000;
// A probe must see a restarted service as soon as it listens, not after grpc-js's growing reconnect backoff.
const QUICK_RECONNECT = { 'grpc.initial_reconnect_backoff_ms': 100, 'grpc.max_reconnect_backoff_ms': 200 };

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('npm start', () => {
  const namespace = uniqueNamespace();
  const logDir = join(ROOT, 'test-artifacts', namespace);
  let gatewayPort: number;
  const probes = new Map<Service, HealthProbe>();
  let start: ChildProcess;
  let exited: Promise<number | null>;
  let output = '';

  /** Every pid the supervisor reported starting, per service, oldest first. */
  const pids = (service: Service) =>
    [...output.matchAll(new RegExp(`^\\[supervisor\\] ${service} started \\(pid (\\d+)\\)$`, 'gm'))].map(([, pid]) => Number(pid));
  const pid = (service: Service) => pids(service).at(-1) ?? 0;
  const gateway = (path: string) => fetch(`http://127.0.0.1:${gatewayPort}${path}`, { signal: AbortSignal.timeout(2_000) });
  /** A gRPC service answers its health check SERVING; the gateway, as a liveness probe, answers /healthz. */
  const answers = async (service: Service) =>
    service === 'gateway' ? (await gateway('/healthz')).ok : (await probes.get(service)?.check(2_000)) === 'SERVING';
  const ready = async () =>
    (await Promise.all(GRPC_SERVICES.map(answers))).every(Boolean) && (await gateway('/readyz')).status === 200;

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist/apps/gateway/main.cjs'))) throw new Error('dist/ is missing: run npm run build first');
    gatewayPort = await freePort();
    const env: Record<string, string> = {
      START_NAMESPACE: namespace,
      START_POSTGRES_URL: POSTGRES_URL,
      START_LOG_DIR: logDir,
      START_GATEWAY_PORT: String(gatewayPort),
      AMQP_URL,
    };
    for (const service of GRPC_SERVICES) {
      const grpcPort = await freePort();
      env[`START_${service.toUpperCase()}_GRPC_PORT`] = String(grpcPort);
      env[`START_${service.toUpperCase()}_METRICS_PORT`] = String(await freePort());
      probes.set(service, new HealthProbe(`127.0.0.1:${grpcPort}`, QUICK_RECONNECT));
    }
    start = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['tools/dev/start.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [start.stdout, start.stderr]) stream?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    exited = new Promise((resolve) => start.once('exit', (code) => resolve(code)));
    await waitFor(
      `npm start to bring the system up (logs: ${logDir})`,
      async () => {
        if (start.exitCode !== null) throw new Error(`npm start exited (code ${start.exitCode}):\n${output}`);
        return output.includes('The system is up.') ? true : undefined;
      },
      150_000,
    );
  }, 180_000);

  afterAll(async () => {
    // Whatever went wrong above, nothing of this run may be left running.
    if (start?.exitCode === null) start.kill('SIGKILL');
    for (const service of SERVICES) for (const child of pids(service)) if (isAlive(child)) process.kill(child, 'SIGKILL');
    for (const probe of probes.values()) probe.close();
    await dropDatabases(SERVICES.map((service) => `${namespace}_${service}`));
    await deleteBusTopology(namespace);
  }, 60_000);

  it.each(SERVICES)('brings %s back after kill -9 while the others keep running and answering', async (killed) => {
    await waitFor('the whole system to be ready', async () => ((await ready()) ? true : undefined), 30_000);
    const others = SERVICES.filter((service) => service !== killed);
    const before = Object.fromEntries(others.map((service) => [service, pid(service)]));
    const victim = pid(killed);

    process.kill(victim, 'SIGKILL');
    let recovered = false;
    const silences: string[] = [];
    let rounds = 0;
    const watch = (async () => {
      while (!recovered) {
        for (const service of others) if (!(await answers(service).catch(() => false))) silences.push(service);
        rounds++;
        await pause(100);
      }
    })();
    try {
      await waitFor(
        `${killed} to answer again`,
        async () => {
          if (pid(killed) === victim) return undefined;
          const back = killed === 'gateway' ? (await gateway('/readyz')).status === 200 : await answers(killed);
          return back ? true : undefined;
        },
        RECOVERY_MS,
      );
    } finally {
      recovered = true;
      await watch;
    }

    expect(isAlive(victim)).toBe(false);
    expect(output).toMatch(new RegExp(`^\\[supervisor\\] ${killed} exited unexpectedly \\(SIGKILL\\) .*; restarting in`, 'm'));
    expect(rounds).toBeGreaterThan(0);
    expect(silences).toEqual([]);
    expect(Object.fromEntries(others.map((service) => [service, pid(service)]))).toEqual(before);
    expect(others.map((service) => isAlive(before[service]))).toEqual(others.map(() => true));
  }, 60_000);

  it('stops every service on SIGINT, one waiting to be restarted included', async () => {
    await waitFor('the whole system to be ready', async () => ((await ready()) ? true : undefined), 30_000);
    const notices = () => output.match(/^\[supervisor\] finance exited unexpectedly/gm)?.length ?? 0;
    const noticed = notices();
    process.kill(pid('finance'), 'SIGKILL');
    await waitFor('finance to wait for its restart', async () => (notices() > noticed ? true : undefined));

    start.kill('SIGINT');

    expect(await exited).toBe(0);
    expect(output).toContain('stopping…');
    const started = SERVICES.flatMap(pids);
    expect(started.filter(isAlive)).toEqual([]);
  }, 60_000);
});
