import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive, waitFor } from '@libs/testing';
import type { RestartPolicy } from './restart-policy';
import { Supervisor, type SupervisorOptions } from './supervisor';

// Real child processes (small node scripts) with a fast policy; `npm start` with the real services is start.spec.ts.
const FAST: RestartPolicy = { firstDelayMs: 20, maxDelayMs: 40, healthyAfterMs: 60_000, maxFailuresInRow: 3 };
const STAYS_UP = 'console.log("up " + process.pid); setInterval(() => {}, 1000);';

describe('Supervisor', () => {
  let dir: string;
  let printed: string[];
  let supervisor: Supervisor | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'supervisor-'));
    printed = [];
    const print = (line: unknown) => void printed.push(String(line));
    jest.spyOn(console, 'log').mockImplementation(print);
    jest.spyOn(console, 'error').mockImplementation(print);
  });
  afterEach(async () => {
    await supervisor?.stopAll();
    supervisor = undefined;
    jest.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  function supervise(options: Partial<SupervisorOptions>, services: Record<string, string>) {
    const echoed: string[] = [];
    const gaveUp: string[] = [];
    supervisor = new Supervisor({
      policy: FAST,
      echo: (service, line) => echoed.push(`${service}: ${line}`),
      onGiveUp: (service) => gaveUp.push(service),
      ...options,
    });
    for (const [name, script] of Object.entries(services)) {
      supervisor.start({ name, args: ['-e', script], env: process.env, logFile: join(dir, `${name}.log`) });
    }
    return { echoed, gaveUp, supervisor };
  }

  const pidsOf = (service: string) =>
    printed.flatMap((line) => new RegExp(`^\\[supervisor\\] ${service} started \\(pid (\\d+)\\)$`).exec(line)?.[1] ?? []).map(Number);

  it('restarts a killed service and leaves the others running', async () => {
    const { echoed } = supervise({}, { a: STAYS_UP, b: STAYS_UP });
    const [a] = await waitFor('a to start', async () => (pidsOf('a').length === 1 ? pidsOf('a') : undefined));
    const [b] = await waitFor('b to start', async () => (pidsOf('b').length === 1 ? pidsOf('b') : undefined));
    await waitFor('both to print', async () => (echoed.length === 2 ? true : undefined));

    process.kill(a, 'SIGKILL');

    const [, again] = await waitFor('a to be restarted', async () => (pidsOf('a').length === 2 ? pidsOf('a') : undefined));
    await waitFor('a to print again', async () => (echoed.includes(`a: up ${again}`) ? true : undefined));
    expect(printed).toContainEqual(expect.stringMatching(/^\[supervisor\] a exited unexpectedly \(SIGKILL\) after .*; restarting in 0\.0 s \(failure 1 in a row\)/));
    expect(pidsOf('b')).toEqual([b]);
    expect(isAlive(b)).toBe(true);
    const log = readFileSync(join(dir, 'a.log'), 'utf8').trim().split('\n');
    expect(log).toEqual([
      expect.stringContaining('"msg":"a started (pid '),
      `up ${a}`,
      expect.stringContaining('"msg":"a exited unexpectedly (SIGKILL)'),
      expect.stringContaining('"msg":"a started (pid '),
      `up ${again}`,
    ]);
    expect(JSON.parse(log[2])).toMatchObject({ level: 'warn', service: 'supervisor', pid: process.pid });
  });

  it('gives up on a service that keeps failing, says why, and keeps the others running', async () => {
    const { gaveUp } = supervise({}, { bad: 'console.error("bad setting"); process.exit(3);', good: STAYS_UP });
    await waitFor('the supervisor to give up', async () => (gaveUp.length > 0 ? true : undefined));

    expect(gaveUp).toEqual(['bad']);
    expect(pidsOf('bad')).toHaveLength(FAST.maxFailuresInRow);
    expect(printed).toContainEqual(
      expect.stringMatching(/^\[supervisor\] bad exited \(code 3\) after .*: 3 failures in a row, every restart ending within 60\.0 s; not restarting it/),
    );
    expect(readFileSync(join(dir, 'bad.log'), 'utf8')).toContain('not restarting it');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pidsOf('bad')).toHaveLength(FAST.maxFailuresInRow);
    expect(pidsOf('good').every(isAlive)).toBe(true);
  });

  it('stops every service, including one waiting to be restarted, and restarts nothing after', async () => {
    const { supervisor } = supervise({ policy: { ...FAST, firstDelayMs: 1_000, maxDelayMs: 1_000 } }, { a: STAYS_UP, b: STAYS_UP });
    const [a] = await waitFor('a to start', async () => (pidsOf('a').length === 1 ? pidsOf('a') : undefined));
    const [b] = await waitFor('b to start', async () => (pidsOf('b').length === 1 ? pidsOf('b') : undefined));
    process.kill(a, 'SIGKILL');
    await waitFor('a to wait for its restart', async () => (printed.some((line) => line.includes('restarting in 1.0 s')) ? true : undefined));

    await supervisor.stopAll();

    expect(isAlive(b)).toBe(false);
    // Past the moment a would have been restarted: it was not.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(pidsOf('a')).toEqual([a]);
  });

  it('kills a service that does not stop on SIGTERM', async () => {
    const stubborn = `process.on("SIGTERM", () => {}); ${STAYS_UP}`;
    const { supervisor, echoed } = supervise({ killAfterMs: 200 }, { stubborn });
    await waitFor('it to start', async () => (echoed.length === 1 ? true : undefined));
    const [pid] = pidsOf('stubborn');

    await supervisor.stopAll();

    expect(isAlive(pid)).toBe(false);
    expect(printed).toContain('[supervisor] stubborn did not stop within 0.2 s; killing it');
  });
});
