import { z } from 'zod';
import { busFields, env, grpcServiceFields, internalAuthFields, loadConfig, metricsFields } from '@libs/config';

/** Every variable the service reads (tools/kubernetes/manifests.spec.ts checks the manifests against it). */
export const configSchema = z.object({
  ...metricsFields(9465),
  ...grpcServiceFields('finance', 50052),
  ...busFields(),
  ...internalAuthFields(),
  CURSOR_SECRET: env.secret('dev-only-finance-cursor-secret'),
  OUTBOX_BATCH_SIZE: env.int(200, 1, 5_000),
  OUTBOX_POLL_MS: env.int(250, 10, 60_000),
  OUTBOX_LEASE_MS: env.int(30_000, 1_000, 600_000),
  OUTBOX_RELAY_ENABLED: env.bool(true),
  OUTBOX_RETENTION_HOURS: env.int(168, 0, 87_600),
  OUTBOX_QUEUE_CHECK_MS: env.int(2_000, 100, 60_000),
  SEED_DEMO_DATA: env.devOnly(),
});

export type FinanceConfig = z.infer<typeof configSchema>;

export const readConfig = (): FinanceConfig => loadConfig('finance', configSchema);
