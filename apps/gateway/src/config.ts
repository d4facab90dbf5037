import { join } from 'node:path';
import { z } from 'zod';
import { commonFields, env, loadConfig } from '@libs/config';

const schema = z.object({
  HOST: env.text('0.0.0.0'),
  PORT: env.port(3000),
  ...commonFields('gateway'),
  REFERENCE_ADDR: env.grpcTarget('127.0.0.1:50051'),
  FINANCE_ADDR: env.grpcTarget('127.0.0.1:50052'),
  AUDIT_ADDR: env.grpcTarget('127.0.0.1:50053'),
  UPSTREAM_TIMEOUT_MS: env.int(5_000, 50, 60_000),
  BREAKER_RESET_MS: env.int(5_000, 100, 600_000),
  BODY_LIMIT_BYTES: env.int(1_048_576, 1_024, 16_777_216),
  HTTP_REQUEST_TIMEOUT_MS: env.int(30_000, 1_000, 600_000),
  HTTP_HEADERS_TIMEOUT_MS: env.int(10_000, 500, 600_000),
  CHANGELOG_PATH: env.text(join(__dirname, 'CHANGELOG.md')),
});

export type GatewayConfig = z.infer<typeof schema>;

export const readConfig = (): GatewayConfig => loadConfig('gateway', schema);
