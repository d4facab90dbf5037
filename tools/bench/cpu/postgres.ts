import { childrenOf, commandLine, readStat } from './proc';

/**
 * Where a child of the postmaster belongs: a database of the run (by its label), the server's own work, or another
 * run's; `untitled` until PostgreSQL has given it a title.
 */
export type PostgresOwner = { database: string } | 'background' | 'other' | 'untitled';

const PARALLEL_WORKER = /parallel worker for PID (\d+)/;
/** A client backend's "host(port)" or "[local]", or an autovacuum worker: work for some database. */
const DATABASE_WORK = /\(\d+\)|\[local\]|autovacuum worker/;

/**
 * Reads what a child of the postmaster is from the title PostgreSQL gives it
 * (update_process_title, on by default): `postgres: [cluster:] user database
 * host(port) state` for a client backend, `autovacuum worker database`,
 * `parallel worker for PID n` (its leader's database), or a name of its own
 * (checkpointer, walwriter…) for the server's background processes, which
 * serve every database. `databases` maps a label to a database name; the run's
 * names are unique, so a word of the title equal to one names it.
 */
export function ownerOf(title: string, databases: Record<string, string>, leaderOwner: (pid: number) => PostgresOwner | undefined): PostgresOwner {
  // A child just forked still shows the postmaster's command line, and one exiting shows an empty one.
  if (!title.startsWith('postgres: ')) return 'untitled';
  const words = new Set(title.split(' '));
  const label = Object.keys(databases).find((name) => words.has(databases[name]));
  if (label) return { database: label };
  const leader = PARALLEL_WORKER.exec(title)?.[1];
  if (leader) return leaderOwner(Number(leader)) ?? 'other';
  return DATABASE_WORK.test(title) ? 'other' : 'background';
}

interface Tracked {
  owner: PostgresOwner;
  /** Ticks when first seen: at the window's start, or 0 for a process born inside it. */
  first: number;
  /** Ticks at the last sample that found it alive. */
  last: number;
  exited: boolean;
}

export interface PostgresCpu {
  /** CPU ms inside the window of each run database's backends (with their parallel and autovacuum workers). */
  byDatabase: Record<string, number>;
  /** CPU ms of the server's background processes (checkpointer, walwriter…), which serve every database on it. */
  backgroundMs: number;
  /** The run databases' backends seen in the window, and how many of them exited before its end. */
  backends: number;
  exitedBackends: number;
  /**
   * CPU ms that the samples missed: what the children that exited in the window (of any database) used after
   * the last sample that saw them, and all that children born and gone between two samples used. The
   * postmaster's cutime + cstime grows by each reaped child's whole-life CPU; this is that growth less the
   * ticks last seen of every child that exited. It bounds what the run databases' figures lost.
   */
  missedMs: number;
}

/**
 * Follows the postmaster's children by pid (and start time, as pids are
 * reused) through a measured window: sample() at its start, every poll and at
 * its end. A child alive at both ends counts its ticks in between; one born
 * inside the window counts all of its ticks. One that exits counts its ticks up
 * to the last sample that saw it alive: what it used after that (at most one
 * poll interval) is lost, and so is a backend born and gone between two polls;
 * `missedMs` measures both, from the postmaster's cutime + cstime.
 */
export class PostgresWatch {
  private readonly tracked = new Map<string, Tracked>();
  private readonly startReaped: number;
  private samples = 0;

  constructor(
    private readonly postmasterPid: number,
    private readonly databases: Record<string, string>,
    private readonly ticksPerMs: number,
  ) {
    this.startReaped = readStat(postmasterPid)?.reapedChildTicks ?? 0;
    this.sample();
  }

  sample(): void {
    const seen = new Set<string>();
    const owners = new Map<number, PostgresOwner>();
    const children = childrenOf(this.postmasterPid).flatMap((pid) => {
      const [stat, title] = [readStat(pid), commandLine(pid)];
      return stat && title !== undefined ? [{ pid, stat, title }] : []; // gone since the list was read
    });
    // Parallel workers are attributed to their leader, so every leader is placed first.
    const leaderOwner = (pid: number) => owners.get(pid);
    for (const pass of [false, true]) {
      for (const { pid, stat, title } of children) {
        if (PARALLEL_WORKER.test(title) !== pass) continue;
        const owner = ownerOf(title, this.databases, leaderOwner);
        owners.set(pid, owner);
        const key = `${pid}:${stat.startTime}`;
        seen.add(key);
        const known = this.tracked.get(key);
        if (known) {
          known.last = stat.ticks;
          if (owner !== 'untitled') known.owner = owner; // titled once, it stays what it was, even while it exits
        } else {
          this.tracked.set(key, { owner, first: this.samples === 0 ? stat.ticks : 0, last: stat.ticks, exited: false });
        }
      }
    }
    for (const [key, tracked] of this.tracked) if (!seen.has(key)) tracked.exited = true;
    this.samples += 1;
  }

  /** Takes the closing sample and sums the window. */
  finish(): PostgresCpu {
    this.sample();
    const result: PostgresCpu = {
      byDatabase: Object.fromEntries(Object.keys(this.databases).map((label) => [label, 0])),
      backgroundMs: 0,
      backends: 0,
      exitedBackends: 0,
      missedMs: 0,
    };
    let reaped = (readStat(this.postmasterPid)?.reapedChildTicks ?? this.startReaped) - this.startReaped;
    for (const { owner, first, last, exited } of this.tracked.values()) {
      if (exited) reaped -= last;
      const ms = (last - first) / this.ticksPerMs;
      if (owner === 'background') result.backgroundMs += ms;
      else if (owner !== 'other' && owner !== 'untitled') {
        result.byDatabase[owner.database] += ms;
        result.backends += 1;
        if (exited) result.exitedBackends += 1;
      }
    }
    // A child that exited but was not reaped yet (or one of before the window reaped inside it) can make this negative.
    result.missedMs = Math.max(0, reaped) / this.ticksPerMs;
    return result;
  }
}
