import type { GatewayDeclaration, GrpcServiceDeclaration, Topology } from './services';

/** Every service of a topology, the gateway first. */
export const servicesOf = (topology: Topology): (GrpcServiceDeclaration | GatewayDeclaration)[] => [
  topology.gateway,
  ...topology.grpcServices,
];

export function declarationOf(topology: Topology, name: string): GrpcServiceDeclaration | GatewayDeclaration {
  const found = servicesOf(topology).find((service) => service.name === name);
  if (!found) throw new Error(`no service ${name} is declared`);
  return found;
}

export const isGateway = (topology: Topology, name: string): boolean => name === topology.gateway.name;

/** The port a service answers its callers on: gRPC, or the gateway's HTTP. */
export const mainPortOf = (service: GrpcServiceDeclaration | GatewayDeclaration): number =>
  'grpcPort' in service ? service.grpcPort : service.httpPort;

/** The gRPC services a service calls: the gateway calls every one. */
export const calleesOf = (topology: Topology, name: string): readonly string[] => {
  const service = declarationOf(topology, name);
  return 'calls' in service ? service.calls : topology.grpcServices.map((callee) => callee.name);
};

/** The services that call a gRPC service (the gateway always among them). */
export const callersOf = (topology: Topology, name: string): string[] =>
  servicesOf(topology)
    .filter((caller) => calleesOf(topology, caller.name).includes(name))
    .map((caller) => caller.name);

export type AddressVariable<N extends string> = `${Uppercase<N>}_ADDR`;

/** The variable holding where a caller reaches a gRPC service: REFERENCE_ADDR for reference. */
export const addressVariable = <N extends string>(name: N): AddressVariable<N> => `${name.toUpperCase()}_ADDR` as AddressVariable<N>;

/** Where one instance of a service runs in a system: `npm start`'s, a test run's. */
export interface Placement {
  /** The URL of a database on this system's PostgreSQL server. */
  databaseUrl(database: string): string;
  /** Its own ports: gRPC (the gateway's HTTP) and metrics. */
  ports: { main: number; metrics: number };
  /** The gRPC target at which this system's callers reach a service. */
  addressOf(name: string): string;
}

/** The variables that put an instance of a service in a system: its database, its ports, what it calls. */
export function placementEnv(topology: Topology, name: string, placement: Placement): Record<string, string> {
  const service = declarationOf(topology, name);
  return {
    DATABASE_URL: placement.databaseUrl(service.database),
    [isGateway(topology, name) ? 'PORT' : 'GRPC_PORT']: String(placement.ports.main),
    METRICS_PORT: String(placement.ports.metrics),
    ...Object.fromEntries(calleesOf(topology, name).map((callee) => [addressVariable(callee), placement.addressOf(callee)])),
  };
}
