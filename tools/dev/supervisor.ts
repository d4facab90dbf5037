import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { decideRestart, type RestartPolicy } from './restart-policy';

export interface ServiceCommand {
  name: string;
  /** Arguments to node (this process's executable). */
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Where its output and the supervisor's notes about it are appended. */
  logFile: string;
}

export interface SupervisorOptions {
  policy: RestartPolicy;
  /** Each line a service writes, for the terminal; its log file gets every line regardless. */
  echo(service: string, line: string): void;
  /** Called when a service failed too often in a row and is left stopped. */
  onGiveUp(service: string): void;
  /** How long a service may take to stop on SIGTERM before it is killed (services end themselves within 10 s). */
  killAfterMs?: number;
}

interface Supervised {
  command: ServiceCommand;
  log: WriteStream;
  child?: ChildProcess;
  /** Resolves when the latest child has exited and its output is all written. */
  closed: Promise<void>;
  startedAt: number;
  failuresInRow: number;
  restartTimer?: NodeJS.Timeout;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Runs services as child processes and restarts one that exits without being asked to, as RestartPolicy says.
 * Every start, exit, restart and surrender is printed (`[supervisor] ...`) and written to the service's log
 * file, so a crash is seen where the service's own lines are. stopAll() stops everything, including a
 * service waiting to be restarted.
 */
export class Supervisor {
  private readonly services = new Map<string, Supervised>();
  private stopped?: Promise<void>;

  constructor(private readonly options: SupervisorOptions) {}

  start(command: ServiceCommand): void {
    if (this.services.has(command.name)) throw new Error(`${command.name} is already supervised`);
    const service: Supervised = {
      command,
      log: createWriteStream(command.logFile, { flags: 'a' }),
      closed: Promise.resolve(),
      startedAt: 0,
      failuresInRow: 0,
    };
    this.services.set(command.name, service);
    this.run(service);
  }

  /** Sends SIGTERM to every running service, cancels pending restarts, and resolves once all have exited. */
  stopAll(): Promise<void> {
    this.stopped ??= this.stopEverything();
    return this.stopped;
  }

  private async stopEverything(): Promise<void> {
    const killAfterMs = this.options.killAfterMs ?? 15_000;
    await Promise.all(
      [...this.services.values()].map(async (service) => {
        clearTimeout(service.restartTimer);
        const child = service.child;
        const kill = setTimeout(() => {
          this.note(service, 'error', `${service.command.name} did not stop within ${seconds(killAfterMs)}; killing it`);
          child?.kill('SIGKILL');
        }, killAfterMs);
        child?.kill('SIGTERM');
        await service.closed;
        clearTimeout(kill);
        await new Promise((resolve) => service.log.end(resolve));
      }),
    );
  }

  private run(service: Supervised): void {
    const { name, args, env } = service.command;
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    service.child = child;
    service.closed = new Promise((resolve) => {
      child.once('close', () => resolve());
      child.once('error', () => resolve());
    });
    service.startedAt = Date.now();
    for (const stream of [child.stdout, child.stderr]) {
      // Two streams share the log file, so neither may close it when it ends.
      stream.pipe(service.log, { end: false });
      createInterface({ input: stream }).on('line', (line) => this.options.echo(name, line));
    }
    this.note(service, 'info', `${name} started (pid ${child.pid})`);
    child.once('exit', (code, signal) => this.exited(service, child, signal ?? `code ${code}`));
    // Spawning node itself failed (no exit event follows): handled as an exit, so the policy still applies.
    child.once('error', (error) => this.exited(service, child, error.message));
  }

  private exited(service: Supervised, child: ChildProcess, how: string): void {
    if (service.child !== child) return;
    service.child = undefined;
    if (this.stopped) return;
    const { name, logFile } = service.command;
    const ranForMs = Date.now() - service.startedAt;
    const decision = decideRestart(this.options.policy, service.failuresInRow, ranForMs);
    service.failuresInRow = decision.failuresInRow;
    if (decision.action === 'give up') {
      this.note(
        service,
        'error',
        `${name} exited (${how}) after ${seconds(ranForMs)}: ${decision.failuresInRow} failures in a row, every restart ` +
          `ending within ${seconds(this.options.policy.healthyAfterMs)}; not restarting it. See ${logFile}`,
      );
      this.options.onGiveUp(name);
      return;
    }
    this.note(
      service,
      'warn',
      `${name} exited unexpectedly (${how}) after ${seconds(ranForMs)}; restarting in ${seconds(decision.delayMs)} ` +
        `(failure ${decision.failuresInRow} in a row). See ${logFile}`,
    );
    service.restartTimer = setTimeout(() => {
      service.restartTimer = undefined;
      this.run(service);
    }, decision.delayMs);
  }

  /** One line on the terminal, and the same as a JSON line (the services' log format) in the service's log file. */
  private note(service: Supervised, level: 'info' | 'warn' | 'error', msg: string): void {
    (level === 'info' ? console.log : console.error)(`[supervisor] ${msg}`);
    const entry = { level, time: new Date().toISOString(), service: 'supervisor', pid: process.pid, msg };
    service.log.write(`${JSON.stringify(entry)}\n`);
  }
}
