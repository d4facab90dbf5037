import {
  addressVariable,
  calleesOf,
  declarationOf,
  GATEWAY_NAME,
  mainPortOf,
  TOPOLOGY,
  type AddressVariable,
  type CalleeName,
  type GrpcServiceName,
  type ServiceName,
} from '@libs/topology';
import { env } from './env-fields';
import { commonFields, metricsFields } from './service-fields';

/*
 * The variables whose defaults are the system's declaration (libs/topology): a service's ports, its database, and
 * where it reaches each service it calls. With none set, a service runs as `npm start` runs it.
 */

type AddressFields<N extends ServiceName> = { [C in CalleeName<N> as AddressVariable<C>]: ReturnType<typeof env.grpcTarget> };

const ADDRESS = {
  // One row of the README's configuration table for all of them, each default labelled by its service.
  row: '<NAME>_ADDR',
  description:
    'where it reaches the service `<name>`, one it calls (`calls` in `libs/topology/src/services.ts`; the gateway calls every gRPC service): host:port, a name resolving to several instances (balanced round-robin), or a list `ipv4:host:port,host:port`',
};

/** `<NAME>_ADDR` of each service `name` calls, by default at that service's declared port on this machine. */
function addressFields<N extends ServiceName>(name: N): AddressFields<N> {
  const fields = calleesOf(TOPOLOGY, name).map((callee) => [
    addressVariable(callee),
    env.grpcTarget(`127.0.0.1:${mainPortOf(declarationOf(TOPOLOGY, callee))}`).meta({ ...ADDRESS, label: callee }),
  ]);
  return Object.fromEntries(fields) as AddressFields<N>;
}

/**
 * Variables of a gRPC service: where it listens, its database, the services it calls, plus the common ones. It
 * listens on loopback unless told otherwise: only the gateway should reach it.
 */
export function grpcServiceFields<N extends GrpcServiceName>(name: N) {
  const service = declarationOf(TOPOLOGY, name);
  return {
    GRPC_HOST: env
      .listenHost('127.0.0.1')
      .describe('gRPC bind address; only the gateway should reach the services, so set `0.0.0.0` only on a private network (compose does)'),
    GRPC_PORT: env.port(mainPortOf(service)).describe('gRPC port'),
    ...metricsFields(service.metricsPort),
    ...commonFields(service.database),
    ...addressFields(name),
  };
}

/** Variables of the gateway: its HTTP and metrics ports, its database, every gRPC service, plus the common ones. */
export function gatewayFields() {
  const gateway = declarationOf(TOPOLOGY, GATEWAY_NAME);
  return {
    PORT: env.port(mainPortOf(gateway)).describe('HTTP port'),
    ...metricsFields(gateway.metricsPort),
    ...commonFields(gateway.database),
    ...addressFields(GATEWAY_NAME),
  };
}

/** The address variables of a parsed configuration of `name`. */
type AddressConfig<N extends ServiceName> = { readonly [C in CalleeName<N> as AddressVariable<C>]: string };

/** Each service `name` calls, with the address its configuration gives it. */
export function addressesOf<N extends ServiceName>(name: N, config: AddressConfig<N>): Record<CalleeName<N>, string> {
  const addresses = config as unknown as Record<string, string>;
  return Object.fromEntries(calleesOf(TOPOLOGY, name).map((callee) => [callee, addresses[addressVariable(callee)]])) as Record<CalleeName<N>, string>;
}
