import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { HealthProbe } from '@libs/grpc';
import { deleteBusTopology, dropDatabases, freePort, isAlive, uniqueNamespace, waitFor, AMQP_URL, POSTGRES_URL } from '@libs/testing';
import { servicesOf, TOPOLOGY } from '@libs/topology';
import { RESTART_POLICY } from './restart-policy';
import { planStart } from './services';

/*
 * `npm start` as users run it (tsx tools/dev/start.ts over the built dist/), moved aside by its START_*
 * variables so that it runs beside a developer's own `npm start` and other test runs. Each service in turn is
 * killed with SIGKILL: it must answer again within 10 s while the others keep their process and keep answering.
 */
const ROOT = join(__dirname, '..', '..');
// Every service npm start runs, from its own list.
const GRPC_SERVICES = planStart({}).grpcServices.map(({ name }) => name);
const SERVICES = [...GRPC_SERVICES, 'gateway'];
const RECOVERY_MS = 10_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `npm start` as users run it, with START_* settings moving it aside: its output so far, its exit, and the run's ports. */
async function launch(namespace: string, overrides: Record<string, string> = {}) {
  const ports = { gateway: await freePort(), grpc: {} as Record<string, number> };
  const env: Record<string, string> = {
    START_NAMESPACE: namespace,
    START_POSTGRES_URL: POSTGRES_URL,
    START_LOG_DIR: join(ROOT, 'test-artifacts', namespace),
    START_GATEWAY_PORT: String(ports.gateway),
    START_GATEWAY_METRICS_PORT: String(await freePort()),
    START_MAIL_PORT: String(await freePort()),
    START_MAIL_DIR: join(ROOT, 'test-artifacts', namespace, 'mail'),
    AMQP_URL,
  };
  for (const service of GRPC_SERVICES) {
    ports.grpc[service] = await freePort();
    env[`START_${service.toUpperCase()}_GRPC_PORT`] = String(ports.grpc[service]);
    env[`START_${service.toUpperCase()}_METRICS_PORT`] = String(await freePort());
  }
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['tools/dev/start.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, ...overrides },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, ports, exited, logDir: env.START_LOG_DIR, output: () => output };
}

/** Every pid npm start reported starting for a service, oldest first. */
const pidsIn = (output: string, service: string) =>
  [...output.matchAll(new RegExp(`^\\[supervisor\\] ${service} started \\(pid (\\d+)\\)$`, 'gm'))].map(([, pid]) => Number(pid));

/** Nothing of a run may be left behind, whatever went wrong. */
async function cleanUp(namespace: string, run: Awaited<ReturnType<typeof launch>> | undefined) {
  if (run?.child.exitCode === null) run.child.kill('SIGKILL');
  for (const service of SERVICES) for (const pid of pidsIn(run?.output() ?? '', service)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await dropDatabases(servicesOf(TOPOLOGY).map(({ database }) => `${namespace}_${database}`));
  await deleteBusTopology(namespace);
}

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist/apps/gateway/main.cjs'))) throw new Error('dist/ is missing: run npm run build first');
});

describe('npm start', () => {
  const namespace = uniqueNamespace();
  let run: Awaited<ReturnType<typeof launch>>;
  const probes = new Map<string, HealthProbe>();

  const pids = (service: string) => pidsIn(run.output(), service);
  const pid = (service: string) => pids(service).at(-1) ?? 0;
  const gateway = (path: string) => fetch(`http://127.0.0.1:${run.ports.gateway}${path}`, { signal: AbortSignal.timeout(2_000) });
  /** A gRPC service answers its health check SERVING; the gateway, as a liveness probe, answers /healthz. */
  const answers = async (service: string) =>
    service === 'gateway' ? (await gateway('/healthz')).ok : (await probes.get(service)?.check(2_000)) === 'SERVING';
  const ready = async () =>
    (await Promise.all(GRPC_SERVICES.map(answers))).every(Boolean) && (await gateway('/readyz')).status === 200;

  beforeAll(async () => {
    run = await launch(namespace);
    for (const service of GRPC_SERVICES) probes.set(service, new HealthProbe(`127.0.0.1:${run.ports.grpc[service]}`));
    await waitFor(
      `npm start to bring the system up (logs: ${run.logDir})`,
      async () => {
        if (run.child.exitCode !== null) throw new Error(`npm start exited (code ${run.child.exitCode}):\n${run.output()}`);
        return run.output().includes('The system is up.') ? true : undefined;
      },
      150_000,
    );
  }, 180_000);

  afterAll(async () => {
    for (const probe of probes.values()) probe.close();
    await cleanUp(namespace, run);
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
    expect(run.output()).toMatch(new RegExp(`^\\[supervisor\\] ${killed} exited unexpectedly \\(SIGKILL\\) .*; restarting in`, 'm'));
    expect(rounds).toBeGreaterThan(0);
    expect(silences).toEqual([]);
    expect(Object.fromEntries(others.map((service) => [service, pid(service)]))).toEqual(before);
    expect(others.map((service) => isAlive(before[service]))).toEqual(others.map(() => true));
  }, 60_000);

  it('stops every service on SIGINT, one waiting to be restarted included', async () => {
    await waitFor('the whole system to be ready', async () => ((await ready()) ? true : undefined), 30_000);
    const notices = () => run.output().match(/^\[supervisor\] finance exited unexpectedly/gm)?.length ?? 0;
    const noticed = notices();
    process.kill(pid('finance'), 'SIGKILL');
    await waitFor('finance to wait for its restart', async () => (notices() > noticed ? true : undefined));

    run.child.kill('SIGINT');

    expect(await run.exited).toBe(0);
    expect(run.output()).toContain('stopping…');
    const started = SERVICES.flatMap(pids);
    expect(started.filter(isAlive)).toEqual([]);
  }, 60_000);
});

describe('npm start with a service that cannot start', () => {
  const namespace = uniqueNamespace();
  let run: Awaited<ReturnType<typeof launch>> | undefined;
  let blocker: Server | undefined;
  afterAll(async () => {
    blocker?.close();
    await cleanUp(namespace, run);
  }, 60_000);

  it('tries a few times, then says why and stops everything with exit code 1', async () => {
    // The port reference should serve metrics on is taken: it fails at every start, as with any bad setting.
    const taken = await freePort();
    blocker = await new Promise<Server>((resolve) => {
      const server = createServer().listen(taken, '127.0.0.1', () => resolve(server));
    });
    run = await launch(namespace, { START_REFERENCE_METRICS_PORT: String(taken) });

    expect(await run.exited).toBe(1);
    const output = run.output();
    expect(output).toContain(`cannot serve metrics on port ${taken}`);
    const { maxFailuresInRow, healthyAfterMs } = RESTART_POLICY;
    expect(output).toMatch(
      new RegExp(
        `^\\[supervisor\\] reference exited \\(code 1\\) after .*: ${maxFailuresInRow} failures in a row, ` +
          `every restart ending within ${healthyAfterMs / 1000}\\.0 s; not restarting it`,
        'm',
      ),
    );
    expect(output).toContain('npm start failed: reference could not start');
    expect(pidsIn(output, 'reference')).toHaveLength(maxFailuresInRow);
    expect(pidsIn(output, 'gateway')).toEqual([]);
    expect(SERVICES.flatMap((service) => pidsIn(output, service)).filter(isAlive)).toEqual([]);
  }, 120_000);
});
