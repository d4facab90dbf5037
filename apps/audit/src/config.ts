import { z } from 'zod';
import { env, loadConfig } from '@libs/config';

const schema = z.object({
  GRPC_HOST: env.text('0.0.0.0'),
  GRPC_PORT: env.port(50053),
  DATABASE_URL: env.url('postgres://postgres@127.0.0.1:5432/audit', ['postgres:', 'postgresql:']),
  DB_POOL_MAX: env.int(10, 1, 200),
  AMQP_URL: env.url('amqp://guest:guest@127.0.0.1:5672', ['amqp:', 'amqps:']),
  AMQP_NAMESPACE: env.text(''),
  CONSUMER_PREFETCH: env.int(50, 1, 1_000),
  LOG_LEVEL: env.logLevel(),
  SHUTDOWN_GRACE_MS: env.int(8_000, 0, 60_000),
});

export type AuditConfig = z.infer<typeof schema>;

export const readConfig = (): AuditConfig => loadConfig('audit', schema);
