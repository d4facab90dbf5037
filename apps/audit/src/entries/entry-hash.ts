import { createHash } from 'node:crypto';
import { canonicalJson, type AuditEvent } from '@libs/contracts';

/** The first entry's prevHash. */
export const GENESIS_HASH = '0'.repeat(64);

/** hash = sha256(prevHash + canonical JSON of the event): docs/AUDIT.md, The hash chain. */
export function entryHash(prevHash: string, event: AuditEvent): string {
  return createHash('sha256').update(prevHash).update(canonicalJson(event)).digest('hex');
}
