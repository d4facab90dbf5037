/** A gRPC service of the system. */
export interface GrpcServiceDeclaration {
  /** Also its app folder (`apps/<name>`), Dockerfile target, compose service and Kubernetes objects. */
  name: string;
  /** Ports it listens on unless told otherwise (GRPC_PORT, METRICS_PORT), and `npm start` gives it. */
  grpcPort: number;
  metricsPort: number;
  /** The PostgreSQL database it owns; a test run or a second `npm start` prefixes it (`<namespace>_<database>`). */
  database: string;
  /** The gRPC services it calls, each reached at `<NAME>_ADDR`. */
  calls: readonly string[];
}

/** The gateway: the only public surface, which calls every gRPC service (each at `<NAME>_ADDR`). */
export interface GatewayDeclaration {
  name: string;
  /** Ports it listens on unless told otherwise (PORT, METRICS_PORT). */
  httpPort: number;
  metricsPort: number;
  database: string;
}

export interface Topology {
  /** `npm start` and the test system start them side by side, and the gateway once every one answers. */
  grpcServices: readonly GrpcServiceDeclaration[];
  gateway: GatewayDeclaration;
}

/**
 * The system's services, with the ports users see. Each service's default ports, database and `<NAME>_ADDR`
 * (libs/config), the gateway's upstreams and `/readyz`, `npm start`, the test system, the end-to-end tests, the
 * compose file's and the Kubernetes manifests' checks, and the benchmark read them from here; a new service is one
 * entry here, then its own code and the manifests those checks ask for (CONTRIBUTING.md, "adding a service").
 */
const GRPC_SERVICES = [
  { name: 'reference', grpcPort: 50051, metricsPort: 9464, database: 'reference', calls: [] },
  { name: 'finance', grpcPort: 50052, metricsPort: 9465, database: 'finance', calls: [] },
  { name: 'audit', grpcPort: 50053, metricsPort: 9466, database: 'audit', calls: [] },
  { name: 'scheduling', grpcPort: 50054, metricsPort: 9468, database: 'scheduling', calls: ['reference'] },
  { name: 'notifications', grpcPort: 50055, metricsPort: 9469, database: 'notifications', calls: [] },
] as const satisfies readonly GrpcServiceDeclaration[];

const GATEWAY = { name: 'gateway', httpPort: 3000, metricsPort: 9467, database: 'gateway' } as const satisfies GatewayDeclaration;

export const TOPOLOGY: Topology = { grpcServices: GRPC_SERVICES, gateway: GATEWAY };

export type GrpcServiceName = (typeof GRPC_SERVICES)[number]['name'];
export type GatewayName = typeof GATEWAY.name;
export type ServiceName = GrpcServiceName | GatewayName;

/** The gRPC services a declared service calls, each reached at `<NAME>_ADDR`: every one for the gateway. */
export type CalleeName<N extends ServiceName> = N extends GrpcServiceName
  ? Extract<(typeof GRPC_SERVICES)[number], { name: N }>['calls'][number]
  : GrpcServiceName;

export const GATEWAY_NAME: GatewayName = GATEWAY.name;
export const GRPC_SERVICE_NAMES: readonly GrpcServiceName[] = GRPC_SERVICES.map((service) => service.name);
/** The gateway first, then the gRPC services. */
export const SERVICE_NAMES: readonly ServiceName[] = [GATEWAY_NAME, ...GRPC_SERVICE_NAMES];
