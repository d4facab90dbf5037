import { databaseName } from '@libs/db';
import type { RunningSystem } from '@libs/testing';
import type { ServiceName } from '@libs/topology';
import { findPostmaster, findRabbitMq } from './locate';
import type { CpuWatchSpec } from './window';

export const RABBITMQ = 'RabbitMQ';

/**
 * Every process a load run can make work: the services, the baselines,
 * RabbitMQ's VM, and PostgreSQL's backends of the run's databases (a
 * label per service) with the server's background processes. What cannot be
 * seen from here (a server in a container) is left out and named in `missing`.
 */
export async function watchedProcesses(
  system: RunningSystem,
  services: readonly ServiceName[],
  baselines: Record<string, { pid: number }>,
): Promise<{ spec: CpuWatchSpec; missing: string[] }> {
  const missing: string[] = [];
  const processes: CpuWatchSpec['processes'] = services.map((name) => {
    const pid = system.pid(name);
    if (!pid) throw new Error(`the ${name} service is not running`);
    return { name, pid };
  });
  processes.push(...Object.entries(baselines).map(([name, { pid }]) => ({ name, pid })));
  const rabbitMq = findRabbitMq();
  if (rabbitMq) processes.push({ name: RABBITMQ, pid: rabbitMq });
  else missing.push(RABBITMQ);
  const postmasterPid = await findPostmaster(system.databaseUrl(services[0]));
  if (!postmasterPid) missing.push('PostgreSQL');
  const databases = Object.fromEntries(services.map((name) => [name, databaseName(system.databaseUrl(name))]));
  return { spec: { processes, ...(postmasterPid ? { postgres: { postmasterPid, databases } } : {}) }, missing };
}
