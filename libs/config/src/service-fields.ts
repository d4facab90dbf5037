import type { z } from 'zod';
import { env } from './env-fields';

/** Variables every service reads: its database, logging and shutdown grace. */
export const commonFields = (service: string) => ({
  DATABASE_URL: env.url(`postgres://postgres@127.0.0.1:5432/${service}`, ['postgres:', 'postgresql:']),
  DB_POOL_MAX: env.int(10, 1, 200),
  // Shorter than the gateway's UPSTREAM_TIMEOUT_MS (5 s), so that a call starved of connections is answered
  // UNAVAILABLE (503, and a read is retried) before its caller gives up on it (504).
  DB_POOL_ACQUIRE_TIMEOUT_MS: env.int(3_000, 100, 60_000),
  LOG_LEVEL: env.logLevel(),
  SHUTDOWN_GRACE_MS: env.int(8_000, 0, 60_000),
  // The standard OpenTelemetry variable; unset, spans are not exported (trace ids still propagate).
  OTEL_EXPORTER_OTLP_ENDPOINT: env.optionalUrl(['http:', 'https:']),
});

/** The parsed values of commonFields, which every service's configuration holds. */
export type CommonConfig = z.infer<z.ZodObject<ReturnType<typeof commonFields>>>;

/**
 * The secret the gateway signs each call's acting user with (HMAC), shared by
 * the gateway and the services that authorise by role (finance, audit).
 */
export const internalAuthFields = () => ({
  INTERNAL_AUTH_SECRET: env.secret('dev-only-internal-auth-secret'),
});

/**
 * Variables of a gRPC service: where it listens, plus the common ones. It
 * listens on loopback unless told otherwise: only the gateway should reach it.
 */
export const grpcServiceFields = (service: string, defaultPort: number) => ({
  GRPC_HOST: env.text('127.0.0.1'),
  GRPC_PORT: env.port(defaultPort),
  ...commonFields(service),
});

/** Variables of a service that talks to RabbitMQ. */
export const busFields = () => ({
  AMQP_URL: env.url('amqp://guest:guest@127.0.0.1:5672', ['amqp:', 'amqps:']),
  AMQP_NAMESPACE: env.text(''),
});

/** Where a gRPC service serves Prometheus metrics over HTTP; METRICS_PORT=0 turns the endpoint off. */
export const metricsFields = (defaultPort: number) => ({
  METRICS_PORT: env.port(defaultPort),
});

/** Variables of a service that publishes its changes through a transactional outbox (libs/outbox). */
export const outboxFields = () => ({
  OUTBOX_BATCH_SIZE: env.int(200, 1, 5_000),
  OUTBOX_POLL_MS: env.int(250, 10, 60_000),
  OUTBOX_LEASE_MS: env.int(30_000, 1_000, 600_000),
  OUTBOX_RELAY_ENABLED: env.bool(true),
  OUTBOX_RETENTION_HOURS: env.int(168, 0, 87_600),
  OUTBOX_QUEUE_CHECK_MS: env.int(2_000, 100, 60_000),
});
