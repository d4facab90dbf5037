import { z } from 'zod';
import { busFields, env, grpcServiceFields, internalAuthFields, loadConfig, metricsFields, outboxFields } from '@libs/config';

/** Every variable the service reads (tools/kubernetes/manifests.spec.ts checks the manifests against it). */
export const configSchema = z.object({
  ...metricsFields(9468),
  ...grpcServiceFields('scheduling', 50054),
  ...busFields(),
  ...internalAuthFields(),
  ...outboxFields(),
  // Signs cursors and slot tokens.
  CURSOR_SECRET: env.secret('dev-only-scheduling-cursor-secret'),
  REFERENCE_ADDR: env.grpcTarget('127.0.0.1:50051'),
  REFERENCE_TIMEOUT_MS: env.int(3_000, 100, 60_000),
  HOLD_SWEEP_MS: env.int(5_000, 100, 600_000),
  SEED_DEMO_DATA: env.devOnly(),
});

export type SchedulingConfig = z.infer<typeof configSchema>;

export const readConfig = (): SchedulingConfig => loadConfig('scheduling', configSchema);
