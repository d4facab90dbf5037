import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

/** What the benchmark reads from /proc/<pid>/stat (proc(5)). */
export interface ProcStat {
  ppid: number;
  /** utime + stime: CPU this process (all its threads) has used, in clock ticks. */
  ticks: number;
  /** cutime + cstime: CPU of the children this process has waited for (reaped), in clock ticks. */
  reapedChildTicks: number;
  /** When the process started, in ticks after boot: with the pid, it names one process even if pids are reused. */
  startTime: number;
}

let ticksPerSecond: number | undefined;

/** Clock ticks per second (`getconf CLK_TCK`, 100 on Linux): the unit of the figures in /proc/<pid>/stat. */
export function clockTicksPerSecond(): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  return ticksPerSecond;
}

const readOrUndefined = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // the process has exited (or is not visible from here)
  }
};

/** The stat line of a live process, or undefined once it has exited. */
export function readStat(pid: number): ProcStat | undefined {
  const line = readOrUndefined(`/proc/${pid}/stat`);
  if (line === undefined) return undefined;
  // The command name (field 2) may hold spaces and parentheses; the fields after its last ") " are plain.
  const fields = line.slice(line.lastIndexOf(') ') + 2).split(' ');
  // Field n of proc(5) is fields[n - 3] here: state (3) is fields[0].
  const field = (n: number) => Number(fields[n - 3]);
  return { ppid: field(4), ticks: field(14) + field(15), reapedChildTicks: field(16) + field(17), startTime: field(22) };
}

/**
 * CPU time the whole machine has spent busy (every core: user, nice, system, irq, softirq, steal) since boot, in
 * clock ticks, from the first line of /proc/stat.
 */
export function machineBusyTicks(): number {
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  return user + nice + system + irq + softirq + steal;
}

/** The command line as `ps` shows it (NULs as spaces); PostgreSQL rewrites its own to say what a process is. */
export function commandLine(pid: number): string | undefined {
  return readOrUndefined(`/proc/${pid}/cmdline`)?.replace(/\0+$/, '').replace(/\0/g, ' ');
}

/** The live children of a process (from every one of its threads), by /proc/<pid>/task/<tid>/children. */
export function childrenOf(pid: number): number[] {
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return threads.flatMap((tid) =>
    (readOrUndefined(`/proc/${pid}/task/${tid}/children`) ?? '')
      .split(' ')
      .filter((pid) => pid !== '')
      .map(Number),
  );
}

/** Live processes whose executable name (/proc/<pid>/comm) is `name` and whose command line matches `args`. */
export function processesNamed(name: string, args: RegExp): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => readOrUndefined(`/proc/${pid}/comm`)?.trim() === name && args.test(commandLine(pid) ?? ''));
}
