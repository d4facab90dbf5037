import { join } from 'node:path';
import { z } from 'zod';
import { env, loadConfig } from '@libs/config';

const schema = z.object({
  GRPC_HOST: env.text('0.0.0.0'),
  GRPC_PORT: env.port(50051),
  DATABASE_URL: env.url('postgres://postgres@127.0.0.1:5432/reference', ['postgres:', 'postgresql:']),
  DB_POOL_MAX: env.int(10, 1, 200),
  CURSOR_SECRET: env.secret('dev-only-cursor-secret-change-me'),
  DEFAULT_DATA_DIR: env.text(join(__dirname, 'default-data')),
  LOAD_DEFAULT_DATA: env.bool(true),
  LOG_LEVEL: env.logLevel(),
  SHUTDOWN_GRACE_MS: env.int(8_000, 0, 60_000),
});

export type ReferenceConfig = z.infer<typeof schema>;

export const readConfig = (): ReferenceConfig => loadConfig('reference', schema);
