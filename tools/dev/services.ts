import { join } from 'node:path';
import { z } from 'zod';
import { env, parseConfig } from '@libs/config';
import { placementEnv, TOPOLOGY, type Topology } from '@libs/topology';

/*
 * The services `npm start` runs are the declared ones (libs/topology), with the ports users see. The gRPC services
 * start side by side; the gateway starts once every one answers health checks.
 */

/** `START_<SERVICE>_<VARIABLE>` overrides a port npm start gives a service, e.g. START_FINANCE_GRPC_PORT. */
const overrideOf = (service: string, variable: string) => `START_${service.toUpperCase()}_${variable}`;

/** Each port variable npm start reads, with the declared port it defaults to. */
const portOverrides = ({ gateway, grpcServices }: Topology): [string, number][] => [
  [overrideOf(gateway.name, 'PORT'), gateway.httpPort],
  [overrideOf(gateway.name, 'METRICS_PORT'), gateway.metricsPort],
  ...grpcServices.flatMap(({ name, grpcPort, metricsPort }): [string, number][] => [
    [overrideOf(name, 'GRPC_PORT'), grpcPort],
    [overrideOf(name, 'METRICS_PORT'), metricsPort],
  ]),
];

/**
 * npm start's own settings. Unset, it runs the system users know (the declared ports, databases named as
 * declared, logs in tmp/logs); set, a second system runs beside the first, as start.spec.ts does.
 */
const schemaOf = (topology: Topology) =>
  z.object({
    // Prefixes database names (<namespace>_<database>) and RabbitMQ names (<namespace>.), as libs/testing's do.
    START_NAMESPACE: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,39}$/, 'must be lowercase letters, digits and _, starting with a letter (at most 40)')
      .optional(),
    START_POSTGRES_URL: env.url('postgres://postgres@127.0.0.1:5432', ['postgres:', 'postgresql:']),
    START_LOG_DIR: env.text(join(__dirname, '..', '..', 'tmp', 'logs')),
    // The mail catcher (mail-catcher.ts): where it listens, and where it keeps each message as an .eml file.
    START_MAIL_PORT: env.port(1025),
    START_MAIL_DIR: env.text(join(__dirname, '..', '..', 'tmp', 'mail')),
    ...Object.fromEntries(portOverrides(topology).map(([variable, port]) => [variable, env.port(port)])),
  });

export interface PlannedService {
  name: string;
  /** Variables for this service on top of npm start's own environment. */
  env: Record<string, string>;
}

export interface StartPlan {
  logDir: string;
  /** The mail catcher: every service's SMTP_URL points at it. */
  mail: { port: number; dir: string };
  grpcServices: (PlannedService & { address: string })[];
  gateway: PlannedService & { url: string };
}

/** What npm start runs, where each service listens and which database and RabbitMQ names it uses. */
export function planStart(source: NodeJS.ProcessEnv, topology: Topology = TOPOLOGY): StartPlan {
  const config = parseConfig(schemaOf(topology), source) as Record<string, string | number | undefined>;
  const namespace = config.START_NAMESPACE;
  const port = (service: string, variable: string) => Number(config[overrideOf(service, variable)]);
  const addressOf = (name: string) => `127.0.0.1:${port(name, 'GRPC_PORT')}`;
  const envOf = (name: string, mainPort: number) => ({
    ...placementEnv(topology, name, {
      databaseUrl: (database) => `${config.START_POSTGRES_URL}/${namespace ? `${namespace}_` : ''}${database}`,
      ports: { main: mainPort, metrics: port(name, 'METRICS_PORT') },
      addressOf,
    }),
    ...(namespace ? { AMQP_NAMESPACE: `${namespace}.` } : {}),
    SMTP_URL: `smtp://127.0.0.1:${Number(config.START_MAIL_PORT)}`,
  });
  const { gateway } = topology;
  const gatewayPort = port(gateway.name, 'PORT');
  return {
    logDir: String(config.START_LOG_DIR),
    mail: { port: Number(config.START_MAIL_PORT), dir: String(config.START_MAIL_DIR) },
    grpcServices: topology.grpcServices.map(({ name }) => ({ name, address: addressOf(name), env: envOf(name, port(name, 'GRPC_PORT')) })),
    gateway: { name: gateway.name, url: `http://localhost:${gatewayPort}`, env: envOf(gateway.name, gatewayPort) },
  };
}
