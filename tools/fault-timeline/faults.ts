import { dropDatabaseConnections, startDatabaseOutage, type RunningSystem } from '@libs/testing';

/** When a fault began and when the service could work again (ms since the epoch). */
export interface FaultWindow {
  began: number;
  ended: number;
}

export interface Fault {
  what: string;
  run(system: RunningSystem, outageMs: number): Promise<FaultWindow>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The faults of finance that the timeline can play; each is real, none is simulated in the gateway. */
export const FAULTS: Record<string, Fault> = {
  db: {
    what: "finance's database refuses connections and drops the open ones (ALLOW_CONNECTIONS false + pg_terminate_backend)",
    async run(system, outageMs) {
      const began = Date.now();
      const outage = await startDatabaseOutage(system.databaseUrl('finance'));
      await sleep(outageMs - (Date.now() - began));
      await outage.end();
      return { began, ended: Date.now() };
    },
  },
  blip: {
    what: "every open connection of finance's database is dropped once; new ones are accepted (pg_terminate_backend)",
    async run(system) {
      const began = Date.now();
      await dropDatabaseConnections(system.databaseUrl('finance'));
      return { began, ended: Date.now() };
    },
  },
  hang: {
    what: 'the finance process is frozen (SIGSTOP), then resumed (SIGCONT)',
    async run(system, outageMs) {
      const pid = system.pid('finance');
      if (!pid) throw new Error('finance is not running');
      const began = Date.now();
      process.kill(pid, 'SIGSTOP');
      await sleep(outageMs);
      process.kill(pid, 'SIGCONT');
      return { began, ended: Date.now() };
    },
  },
  kill: {
    what: 'the finance process is killed (SIGKILL) and started again after the outage; it ends when finance is serving',
    async run(system, outageMs) {
      const began = Date.now();
      await system.stop('finance', 'SIGKILL');
      await sleep(outageMs - (Date.now() - began));
      await system.start('finance');
      return { began, ended: Date.now() };
    },
  },
};
