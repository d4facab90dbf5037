import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { Client } from 'pg';
import { dropDatabases, POSTGRES_URL, uniqueNamespace, withPgClient } from '@libs/testing';
import { findPostmaster } from './locate';
import { ownerOf } from './postgres';
import { clockTicksPerSecond, readStat } from './proc';
import { startCpuWindow, type CpuWindow } from './window';

/** One tick of /proc's clock, in ms: a reading can be off by one at each end. */
const tickMs = () => 1000 / clockTicksPerSecond();

/** Work that keeps a backend on a core for a few hundred ms. */
const BURN = 'SELECT count(*) FROM generate_series(1, 4000000)';

const connect = async (url: string) => {
  const client = new Client({ connectionString: url });
  await client.connect();
  return client;
};

describe('the CPU of one measured window', () => {
  it('is what the process itself counts, read from /proc', async () => {
    // A child that burns CPU when told, and reports the CPU it used doing so (process.cpuUsage).
    const child = spawn(process.execPath, [
      '-e',
      `process.stdin.once('data', () => {
         const before = process.cpuUsage(); const until = Date.now() + 300;
         while (Date.now() < until);
         const used = process.cpuUsage(before);
         console.log((used.user + used.system) / 1000);
         process.stdin.once('data', () => process.exit(0));
       });
       console.log('ready');`,
    ]);
    try {
      const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      await lines.next(); // started: Node's own start-up is not part of the window
      const window = startCpuWindow({ processes: [{ name: 'child', pid: Number(child.pid) }] });
      child.stdin.write('go\n');
      const reported = Number((await lines.next()).value);
      const measured = window.stop();
      expect(reported).toBeGreaterThan(50);
      expect(Math.abs(measured.ms.child - reported)).toBeLessThanOrEqual(3 * tickMs());
      expect(measured.endUs).toBeGreaterThan(measured.startUs);
    } finally {
      child.stdin.write('stop\n');
      await once(child, 'exit');
    }
  });

  describe("PostgreSQL's backends", () => {
    // A bare database, so that no pool of the test's own holds a backend of it.
    const name = `${uniqueNamespace()}_cpuwindow`;
    const url = `${POSTGRES_URL}/${name}`;
    let postmasterPid: number;
    beforeAll(async () => {
      await withPgClient(`${POSTGRES_URL}/postgres`, (client) => client.query(`CREATE DATABASE ${name}`));
      const found = await findPostmaster(url);
      if (!found) throw new Error('the PostgreSQL server of the tests is not visible from here');
      postmasterPid = found;
    });
    afterAll(() => dropDatabases([name]));

    const watch = () => startCpuWindow({ processes: [], postgres: { postmasterPid, databases: { scratch: name } } });
    const backendMs = (window: CpuWindow) => window.ms['PostgreSQL scratch'];

    it("counts the run's databases only, from a backend that lives through the window", async () => {
      const ours = await connect(url);
      const another = await connect(`${POSTGRES_URL}/postgres`);
      try {
        const window = watch();
        await another.query(BURN);
        const alone = backendMs(window.stop());
        const second = watch();
        await ours.query(BURN);
        const burnt = second.stop();
        expect(alone).toBeLessThanOrEqual(tickMs());
        expect(backendMs(burnt)).toBeGreaterThan(50);
        expect(burnt.postgres).toMatchObject({ backends: 1, exitedBackends: 0 });
      } finally {
        await Promise.all([ours.end(), another.end()]);
      }
    });

    it('counts a backend born and gone inside the window, up to the last sample, and says how much it missed', async () => {
      const window = watch();
      const client = await connect(url);
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await client.query(BURN);
      await client.end();
      // The postmaster reaps the backend once it has exited: wait for that before the closing sample.
      while (readStat(rows[0].pid) !== undefined) await new Promise((resolve) => setTimeout(resolve, 20));
      const stopped = window.stop();
      expect(stopped.postgres).toMatchObject({ backends: 1, exitedBackends: 1 });
      expect(backendMs(stopped)).toBeGreaterThan(50);
    });
  });

  it('reads what a child of the postmaster is from its title', () => {
    const databases = { reference: 'tabc_reference', finance: 'tabc_finance' };
    const leaders = new Map([[42, { database: 'finance' }]]);
    const owner = (title: string) => ownerOf(title, databases, (pid) => leaders.get(pid));
    expect(owner('postgres: 15/main: postgres tabc_reference 127.0.0.1(50330) SELECT')).toEqual({ database: 'reference' });
    expect(owner('postgres: postgres tabc_finance [local] idle in transaction')).toEqual({ database: 'finance' });
    expect(owner('postgres: 15/main: autovacuum worker tabc_finance')).toEqual({ database: 'finance' });
    expect(owner('postgres: 15/main: parallel worker for PID 42')).toEqual({ database: 'finance' });
    expect(owner('postgres: 15/main: parallel worker for PID 7')).toBe('other');
    expect(owner('postgres: 15/main: postgres another_db 127.0.0.1(50331) idle')).toBe('other');
    expect(owner('postgres: 15/main: autovacuum worker another_db')).toBe('other');
    expect(owner('postgres: 15/main: walwriter')).toBe('background');
    expect(owner('postgres: 15/main: checkpointer')).toBe('background');
    expect(owner('/usr/lib/postgresql/15/bin/postgres -D /var/lib/postgresql/15/main')).toBe('untitled');
    expect(owner('')).toBe('untitled');
  });
});

