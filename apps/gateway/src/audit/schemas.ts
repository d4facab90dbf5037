import { z } from 'zod';
import { SUBJECTS_VERSION } from '@libs/contracts';

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const count = z.int().min(0);

export const auditEntry = z
  .object({
    sequence: z.int().min(1),
    eventId: z.guid(),
    occurredAt: z.string().meta({ format: 'date-time' }),
    recordedAt: z.string().meta({ format: 'date-time' }),
    action: z.string().meta({ examples: ['transaction.created', 'payment.processed'] }),
    entityType: z.string(),
    entityIds: z.array(z.string()),
    actor: z.object({ userId: z.string(), role: z.string() }),
    requestId: z.string(),
    traceId: z.string().optional().meta({ description: 'W3C trace id of the request that caused the change.' }),
    schemaVersion: z
      .int()
      .min(2)
      .optional()
      .meta({
        description:
          'The shape of `before`/`after` when the event was written; absent for version 1, whose entries are ' +
          'served converted to the current shape (docs/AUDIT.md).',
      }),
    subjects: z
      .array(z.string())
      .optional()
      .meta({
        description:
          'The users who, besides the roles that read every such record, could read the entity through the API just ' +
          `before or just after the change; from schemaVersion ${SUBJECTS_VERSION} on, absent before it (docs/AUDIT.md).`,
      }),
    before: z.unknown().meta({ description: 'The record before the change; null on create.' }),
    after: z.unknown().meta({ description: 'The record after the change; null on delete.' }),
    prevHash: sha256,
    hash: sha256.meta({ description: 'sha256(prevHash + canonical JSON of the entry).' }),
  })
  .meta({ id: 'AuditEntry' });

const checkpointsChecked = count.meta({ description: 'Signed checkpoints whose signature and hash matched the chain on the way (docs/AUDIT.md, "Checkpoints").' });

export const chainVerdict = z.union([
  z.object({ intact: z.literal(true), checked: count, lastHash: z.string().nullable(), checkpointsChecked }),
  z.object({
    intact: z.literal(false),
    checked: count,
    checkpointsChecked,
    firstBadEntry: z.object({
      sequence: z.int(),
      eventId: z.string(),
      problem: z.string().meta({ description: 'Which hash does not match, and why.' }),
    }),
  }),
]);

export const deadLetters = z.object({ queue: z.string(), depth: count });

export const replayOutcome = z.object({ replayed: count, remaining: count, stoppedAtDeadline: z.boolean() });

export const checkpoint = z
  .object({
    sequence: z.int().min(1).meta({ description: 'The entry whose hash is signed: the head of the chain when it was signed.' }),
    hash: sha256,
    signedAt: z.string().meta({ format: 'date-time' }),
    keyId: z.string().meta({ description: 'The key that signed it (in `keys`).' }),
    signature: z.string().meta({
      description: 'Ed25519, base64url, over the UTF-8 bytes of `audit-checkpoint:v1:<sequence>:<hash>:<signedAt>`.',
    }),
  })
  .meta({ id: 'AuditCheckpoint', description: "The chain's head at a moment, signed by the audit service's own key." });

export const checkpointKey = z
  .object({
    keyId: z.string().meta({ description: 'The first 16 hex digits of the SHA-256 of the raw public key.' }),
    kty: z.literal('OKP'),
    crv: z.literal('Ed25519'),
    x: z.string().meta({ description: 'The raw public key, base64url (RFC 8037).' }),
    current: z.boolean().meta({ description: 'Whether the service signs with it now; the others are earlier keys it still trusts.' }),
  })
  .meta({ id: 'AuditCheckpointKey', description: 'A public key that verifies checkpoints, as a JWK.' });
