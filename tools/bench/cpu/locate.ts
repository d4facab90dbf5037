import { Client } from 'pg';
import { commandLine, processesNamed, readStat } from './proc';

/**
 * The postmaster of the PostgreSQL server at `url`: the parent of the backend
 * serving this connection. Undefined when the server's processes are not
 * visible from here (another machine, another pid namespace).
 */
export async function findPostmaster(url: string): Promise<number | undefined> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    // In another pid namespace the number may name some other process here, or none.
    const ours = commandLine(rows[0].pid)?.startsWith('postgres');
    return ours ? readStat(rows[0].pid)?.ppid : undefined;
  } finally {
    await client.end();
  }
}

/** RabbitMQ's Erlang VM (beam.smp running the rabbit application), if exactly one runs here. */
export function findRabbitMq(): number | undefined {
  const found = processesNamed('beam.smp', /\brabbit\b/);
  return found.length === 1 ? found[0] : undefined;
}
