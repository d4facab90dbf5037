import {
  Server,
  ServerCredentials,
  type handleUnaryCall,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import type { Logger } from '@libs/logging';
import { WITHOUT_CHANNELZ } from './channelz';
import { INTERNAL_ERROR, safeCallback } from './safe-callback';

export interface ServiceRegistration {
  /** Fully qualified name, as health checks ask for it (e.g. reference.v1.ReferenceService). */
  name: string;
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
}

/**
 * How long a client connection may live before the server asks the client to open a new one (GOAWAY; calls in
 * flight finish on the old one). A gRPC client resolves its target's name again only when a connection ends, so
 * without this a gateway would keep calling the instances it found at start and never the ones added later
 * (docker compose --scale, a Kubernetes autoscaler behind a headless Service). grpc-js adds ±10% jitter.
 */
export const MAX_CONNECTION_AGE_MS = 60_000;

export interface RunningGrpcServer {
  port: number;
  /** Marks the services NOT_SERVING, stops accepting calls and waits for those in flight, up to graceMs. */
  shutdown(graceMs: number): Promise<void>;
}

/**
 * The last resort behind unaryHandler, for every unary method however it was
 * written: a synchronous throw, or a throw from grpc-js while answering, becomes
 * INTERNAL instead of an exception that would reach the process (grpc-js would
 * answer UNKNOWN to the first, and the second would end the process).
 */
function guarded(logger: Logger, service: ServiceRegistration): UntypedServiceImplementation {
  const methods = Object.entries(service.implementation).map(([name, implementation]) => {
    const definition = service.definition[name];
    if (!definition || definition.requestStream || definition.responseStream) return [name, implementation];
    const unary = implementation as handleUnaryCall<unknown, unknown>;
    const guard: handleUnaryCall<unknown, unknown> = (call, callback) => {
      const answer = safeCallback(logger, definition.path, callback);
      try {
        unary(call, answer);
      } catch (error) {
        logger.error({ err: error, method: definition.path }, 'handler threw');
        answer(INTERNAL_ERROR);
      }
    };
    return [name, guard];
  });
  return Object.fromEntries(methods);
}

export async function startGrpcServer(options: {
  host: string;
  port: number;
  logger: Logger;
  services: ServiceRegistration[];
  /** MAX_CONNECTION_AGE_MS unless given (tests shorten it). */
  maxConnectionAgeMs?: number;
}): Promise<RunningGrpcServer> {
  const server = new Server({
    'grpc.max_receive_message_length': 8 * 1024 * 1024,
    'grpc.max_connection_age_ms': options.maxConnectionAgeMs ?? MAX_CONNECTION_AGE_MS,
    ...WITHOUT_CHANNELZ,
  });
  const names = ['', ...options.services.map((service) => service.name)];
  const health = new HealthImplementation(Object.fromEntries(names.map((name) => [name, 'SERVING'])));
  health.addToServer(server);
  for (const service of options.services) server.addService(service.definition, guarded(options.logger, service));

  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${options.host}:${options.port}`, ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    );
  });
  options.logger.info({ port }, 'gRPC server listening');

  return {
    port,
    shutdown: (graceMs) =>
      new Promise<void>((resolve) => {
        for (const name of names) health.setStatus(name, 'NOT_SERVING');
        const timer = setTimeout(() => {
          options.logger.warn('calls still in flight after the grace period; forcing shutdown');
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}
