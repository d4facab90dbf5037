import { z } from 'zod';
import { EVENT_STREAMS } from '@libs/bus';
import { busFields, cursorSecretField, env, eventTrustFields, grpcServiceFields, actorTrustFields, loadConfig } from '@libs/config';

/** Every variable the service reads (tools/kubernetes/manifests.spec.ts checks the manifests against it). */
export const configSchema = z.object({
  ...grpcServiceFields('audit'),
  ...busFields(),
  ...actorTrustFields(),
  ...eventTrustFields(EVENT_STREAMS),
  CONSUMER_PREFETCH: env.int(50, 1, 1_000).describe('unacknowledged messages the consumer may hold, at most: fewer when that many of the largest events would pass its byte budget (docs/decisions/0024)'),
  CURSOR_SECRET: cursorSecretField('dev-only-cursor-secret-change-me'),
  CHECKPOINT_SECRET: env
    .secret('dev-only-audit-checkpoint-secret')
    .describe("the secret the service's Ed25519 checkpoint key is derived from (32 random bytes, base64: `openssl rand -base64 32`); its public key is published with the checkpoints"),
  CHECKPOINT_TRUSTED_KEYS: env
    .publicKeys('')
    .describe('public keys of earlier checkpoint keys, still trusted for the checkpoints they signed: comma-separated `x` values (base64url) from GET /api/v1/audit/checkpoints'),
  CHECKPOINT_INTERVAL_MS: env.int(300_000, 1_000, 86_400_000).describe('how often the chain head is signed, when it moved since the last checkpoint'),
});

export type AuditConfig = z.infer<typeof configSchema>;

export const readConfig = (): AuditConfig => loadConfig('audit', configSchema);
