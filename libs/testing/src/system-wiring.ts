import { isGateway, placementEnv, type Placement, type Topology } from '@libs/topology';
import { AMQP_URL, POSTGRES_URL } from './resources';

/** Where one instance of a service listens in a test run: its gRPC (the gateway's HTTP) port and its metrics port. */
type InstancePorts = Placement['ports'];

/** The database of a service in a test run (`<namespace>_<database>`), never `npm start`'s or another run's. */
export const runDatabaseUrl = (namespace: string, database: string): string => `${POSTGRES_URL}/${namespace}_${database}`;

/** A gRPC target reaching every instance of a service: several are balanced round-robin by the caller. */
function targetOf(service: string, instances: readonly InstancePorts[] | undefined): string {
  if (!instances?.length) throw new Error(`${service} is called but not started in this run (add it to \`only\`)`);
  return instances.length === 1 ? `127.0.0.1:${instances[0].main}` : `ipv4:${instances.map(({ main }) => `127.0.0.1:${main}`).join(',')}`;
}

/**
 * The variables the test system gives one instance (1, 2, …) of a service: on loopback, on its own ports, with
 * its own database and the run's RabbitMQ names, reaching every service it calls at all of that service's instances.
 */
export function instanceEnv(
  topology: Topology,
  run: { namespace: string; ports: Readonly<Record<string, readonly InstancePorts[]>> },
  service: string,
  instance = 1,
): Record<string, string> {
  return {
    LOG_LEVEL: 'debug',
    AMQP_URL,
    AMQP_NAMESPACE: `${run.namespace}.`,
    NODE_ENV: 'test',
    [isGateway(topology, service) ? 'HOST' : 'GRPC_HOST']: '127.0.0.1',
    ...placementEnv(topology, service, {
      databaseUrl: (database) => runDatabaseUrl(run.namespace, database),
      ports: run.ports[service][instance - 1],
      addressOf: (callee) => targetOf(callee, run.ports[callee]),
    }),
  };
}
