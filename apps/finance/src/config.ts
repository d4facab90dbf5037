import { z } from 'zod';
import {
  busFields,
  cursorSecretField,
  grpcServiceFields,
  internalAuthFields,
  loadConfig,
  outboxFields,
  seedDemoDataField,
} from '@libs/config';

/** Every variable the service reads (tools/kubernetes/manifests.spec.ts checks the manifests against it). */
export const configSchema = z.object({
  ...grpcServiceFields('finance'),
  ...busFields(),
  ...internalAuthFields(),
  ...outboxFields(),
  CURSOR_SECRET: cursorSecretField('dev-only-finance-cursor-secret'),
  SEED_DEMO_DATA: seedDemoDataField(),
});

export type FinanceConfig = z.infer<typeof configSchema>;

export const readConfig = (): FinanceConfig => loadConfig('finance', configSchema);
