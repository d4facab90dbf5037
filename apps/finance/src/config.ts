import { z } from 'zod';
import { busFields, env, grpcServiceFields, loadConfig } from '@libs/config';

const schema = z.object({
  ...grpcServiceFields('finance', 50052),
  ...busFields(),
  CURSOR_SECRET: env.secret('dev-only-finance-cursor-secret'),
  OUTBOX_BATCH_SIZE: env.int(200, 1, 5_000),
  OUTBOX_POLL_MS: env.int(250, 10, 60_000),
  OUTBOX_LEASE_MS: env.int(30_000, 1_000, 600_000),
  SEED_DEMO_DATA: env.devOnly(),
});

export type FinanceConfig = z.infer<typeof schema>;

export const readConfig = (): FinanceConfig => loadConfig('finance', schema);
