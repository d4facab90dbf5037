import { z } from 'zod';
import { busFields, cursorSecretField, env, grpcServiceFields, internalAuthFields, loadConfig } from '@libs/config';

/** Every variable the service reads (tools/kubernetes/manifests.spec.ts checks the manifests against it). */
export const configSchema = z.object({
  ...grpcServiceFields('audit'),
  ...busFields(),
  ...internalAuthFields(),
  CONSUMER_PREFETCH: env.int(50, 1, 1_000).describe('unacknowledged messages the consumer may hold'),
  CURSOR_SECRET: cursorSecretField('dev-only-cursor-secret-change-me'),
});

export type AuditConfig = z.infer<typeof configSchema>;

export const readConfig = (): AuditConfig => loadConfig('audit', configSchema);
