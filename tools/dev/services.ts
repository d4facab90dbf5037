import { join } from 'node:path';
import { z } from 'zod';
import { env, parseConfig } from '@libs/config';

/**
 * The gRPC services `npm start` runs, with the ports users see. They start side by side; the gateway starts
 * once every one answers health checks, and reaches each at `<NAME>_ADDR`, as does a service at those it
 * `calls`. A new service is one line here.
 */
const GRPC_SERVICES: { name: string; grpcPort: number; metricsPort: number; calls?: string[] }[] = [
  { name: 'reference', grpcPort: 50051, metricsPort: 9464 },
  { name: 'finance', grpcPort: 50052, metricsPort: 9465 },
  { name: 'audit', grpcPort: 50053, metricsPort: 9466 },
  { name: 'scheduling', grpcPort: 50054, metricsPort: 9468, calls: ['reference'] },
];
const GATEWAY = { name: 'gateway', port: 3000, metricsPort: 9467 };

/** `START_<SERVICE>_<VARIABLE>` overrides a port npm start gives a service, e.g. START_FINANCE_GRPC_PORT. */
const overrideOf = (service: string, variable: string) => `START_${service.toUpperCase()}_${variable}`;
const GATEWAY_PORT = overrideOf(GATEWAY.name, 'PORT');
const GATEWAY_METRICS_PORT = overrideOf(GATEWAY.name, 'METRICS_PORT');

/**
 * npm start's own settings. Unset, it runs the system users know (ports above, databases named after the
 * services, logs in tmp/logs); set, a second system runs beside the first, as start.spec.ts does.
 */
const schema = z.object({
  // Prefixes database names (<namespace>_<service>) and RabbitMQ names (<namespace>.), as libs/testing's do.
  START_NAMESPACE: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,39}$/, 'must be lowercase letters, digits and _, starting with a letter (at most 40)')
    .optional(),
  START_POSTGRES_URL: env.url('postgres://postgres@127.0.0.1:5432', ['postgres:', 'postgresql:']),
  START_LOG_DIR: env.text(join(__dirname, '..', '..', 'tmp', 'logs')),
  [GATEWAY_PORT]: env.port(GATEWAY.port),
  [GATEWAY_METRICS_PORT]: env.port(GATEWAY.metricsPort),
  ...Object.fromEntries(
    GRPC_SERVICES.flatMap(({ name, grpcPort, metricsPort }) => [
      [overrideOf(name, 'GRPC_PORT'), env.port(grpcPort)],
      [overrideOf(name, 'METRICS_PORT'), env.port(metricsPort)],
    ]),
  ),
});

export interface PlannedService {
  name: string;
  /** Variables for this service on top of npm start's own environment. */
  env: Record<string, string>;
}

export interface StartPlan {
  logDir: string;
  grpcServices: (PlannedService & { address: string })[];
  gateway: PlannedService & { url: string };
}

/** What npm start runs, where each service listens and which database and RabbitMQ names it uses. */
export function planStart(source: NodeJS.ProcessEnv): StartPlan {
  const config = parseConfig(schema, source) as Record<string, string | number | undefined>;
  const namespace = config.START_NAMESPACE;
  const forService = (name: string) => ({
    DATABASE_URL: `${config.START_POSTGRES_URL}/${namespace ? `${namespace}_` : ''}${name}`,
    ...(namespace ? { AMQP_NAMESPACE: `${namespace}.` } : {}),
  });
  const addressOf = (name: string) => `127.0.0.1:${config[overrideOf(name, 'GRPC_PORT')]}`;
  const addressVariable = (name: string) => [`${name.toUpperCase()}_ADDR`, addressOf(name)];
  const grpcServices = GRPC_SERVICES.map(({ name, calls = [] }) => ({
    name,
    address: addressOf(name),
    env: {
      ...forService(name),
      GRPC_PORT: String(config[overrideOf(name, 'GRPC_PORT')]),
      METRICS_PORT: String(config[overrideOf(name, 'METRICS_PORT')]),
      ...Object.fromEntries(calls.map(addressVariable)),
    },
  }));
  const gatewayPort = String(config[GATEWAY_PORT]);
  return {
    logDir: String(config.START_LOG_DIR),
    grpcServices,
    gateway: {
      name: GATEWAY.name,
      url: `http://localhost:${gatewayPort}`,
      env: {
        ...forService(GATEWAY.name),
        PORT: gatewayPort,
        METRICS_PORT: String(config[GATEWAY_METRICS_PORT]),
        ...Object.fromEntries(grpcServices.map(({ name }) => addressVariable(name))),
      },
    },
  };
}
