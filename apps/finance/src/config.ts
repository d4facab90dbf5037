import { z } from 'zod';
import { env, loadConfig } from '@libs/config';

const schema = z.object({
  GRPC_HOST: env.text('0.0.0.0'),
  GRPC_PORT: env.port(50052),
  DATABASE_URL: env.url('postgres://postgres@127.0.0.1:5432/finance', ['postgres:', 'postgresql:']),
  DB_POOL_MAX: env.int(10, 1, 200),
  AMQP_URL: env.url('amqp://guest:guest@127.0.0.1:5672', ['amqp:', 'amqps:']),
  AMQP_NAMESPACE: env.text(''),
  OUTBOX_BATCH_SIZE: env.int(200, 1, 5_000),
  OUTBOX_POLL_MS: env.int(250, 10, 60_000),
  OUTBOX_LEASE_MS: env.int(30_000, 1_000, 600_000),
  SEED_DEMO_DATA: env.devOnly(),
  LOG_LEVEL: env.logLevel(),
  SHUTDOWN_GRACE_MS: env.int(8_000, 0, 60_000),
});

export type FinanceConfig = z.infer<typeof schema>;

export const readConfig = (): FinanceConfig => loadConfig('finance', schema);
