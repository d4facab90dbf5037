import { clockTicksPerSecond, machineBusyTicks, readStat } from './proc';
import { PostgresWatch, type PostgresCpu } from './postgres';

/** The processes whose CPU a load run measures, named as the report shows them. */
export interface CpuWatchSpec {
  processes: { name: string; pid: number }[];
  /** The postmaster, and the run's databases by label (e.g. reference → t…_reference). */
  postgres?: { postmasterPid: number; databases: Record<string, string> };
}

/** The CPU each process used inside one measured window (never the warm-up). */
export interface CpuWindow {
  /** The window on the monotonic clock, in µs: the clock of V8's CPU profiles, so a profile can be cut to it. */
  startUs: number;
  endUs: number;
  /** CPU ms (user + system) inside the window, by process name, PostgreSQL's as `PostgreSQL <label>`. */
  ms: Record<string, number>;
  /**
   * Cores kept busy on average through the window by everything else on the machine (other runs, builds, tests):
   * the machine's busy time (/proc/stat) less every process above, over the window's length. CPU per request
   * grows with it (caches, fewer requests handled per event-loop turn), so compare runs with similar figures.
   */
  otherCores: number;
  postgres?: PostgresCpu;
}

/** How often PostgreSQL's children are sampled, so that one that exits loses at most this much of its CPU. */
const POSTGRES_POLL_MS = 100;

export const POSTGRES_BACKGROUND = 'PostgreSQL background';
export const postgresLabel = (database: string) => `PostgreSQL ${database}`;
export const LOAD_GENERATOR = 'load generator';

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Starts measuring: reads every process's utime + stime (/proc/<pid>/stat) now
 * and again at stop(); the load generator's own by process.cpuUsage(). A
 * process that is gone at stop() (it should not be) counts nothing.
 */
export function startCpuWindow(spec: CpuWatchSpec): { stop(): CpuWindow } {
  const ticksPerMs = clockTicksPerSecond() / 1000;
  const startUs = nowUs();
  const machineBefore = machineBusyTicks();
  const ticks = (pid: number) => readStat(pid)?.ticks;
  const before = spec.processes.map(({ pid }) => ticks(pid));
  const ownBefore = process.cpuUsage();
  const postgres = spec.postgres && new PostgresWatch(spec.postgres.postmasterPid, spec.postgres.databases, ticksPerMs);
  const poll = postgres && setInterval(() => postgres.sample(), POSTGRES_POLL_MS);
  return {
    stop() {
      if (poll) clearInterval(poll);
      const own = process.cpuUsage(ownBefore);
      const ms: Record<string, number> = {};
      spec.processes.forEach(({ name, pid }, i) => {
        const [start, end] = [before[i], ticks(pid)];
        ms[name] = start === undefined || end === undefined ? 0 : (end - start) / ticksPerMs;
      });
      ms[LOAD_GENERATOR] = (own.user + own.system) / 1000;
      const pg = postgres?.finish();
      if (pg) {
        for (const [label, value] of Object.entries(pg.byDatabase)) ms[postgresLabel(label)] = value;
        ms[POSTGRES_BACKGROUND] = pg.backgroundMs;
      }
      const endUs = nowUs();
      const ours = Object.values(ms).reduce((total, value) => total + value, 0);
      const otherMs = (machineBusyTicks() - machineBefore) / ticksPerMs - ours;
      return { startUs, endUs, ms, otherCores: Math.max(0, otherMs) / ((endUs - startUs) / 1000), ...(pg ? { postgres: pg } : {}) };
    },
  };
}
