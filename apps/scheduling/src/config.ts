import { z } from 'zod';
import {
  busFields,
  cursorSecretField,
  env,
  grpcServiceFields,
  actorTrustFields,
  loadConfig,
  outboxFields,
  seedDemoDataField,
} from '@libs/config';

/** Every variable the service reads (tools/kubernetes/manifests.spec.ts checks the manifests against it). */
export const configSchema = z.object({
  ...grpcServiceFields('scheduling'),
  ...busFields(),
  ...actorTrustFields(),
  ...outboxFields('scheduling'),
  // Signs cursors and slot tokens.
  CURSOR_SECRET: cursorSecretField('dev-only-scheduling-cursor-secret'),
  REFERENCE_TIMEOUT_MS: env.int(3_000, 100, 60_000).describe('deadline of the calls to the reference service (whether a premise exists)'),
  HOLD_SWEEP_MS: env
    .int(5_000, 100, 600_000)
    .describe('how often each instance expires holds past their expiry; a booker reclaims an expired hold in its way without waiting for it'),
  REMINDER_SWEEP_INTERVAL_MS: env
    .int(1_000, 100, 60_000)
    .describe('how often each instance turns due appointment reminders into events; a reminder goes out at most this long (and a sweep) after its due time'),
  SEED_DEMO_DATA: seedDemoDataField(),
});

export type SchedulingConfig = z.infer<typeof configSchema>;

export const readConfig = (): SchedulingConfig => loadConfig('scheduling', configSchema);
