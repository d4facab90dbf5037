import { createHash } from 'node:crypto';
import { canonicalJson, type AuditEvent } from '@libs/contracts';

/** The first entry's prevHash. */
export const GENESIS_HASH = '0'.repeat(64);

/** hash = sha256(prevHash + canonical JSON of the event), as DESIGN.md §6 defines it. */
export function entryHash(prevHash: string, event: AuditEvent): string {
  return createHash('sha256').update(prevHash).update(canonicalJson(event)).digest('hex');
}
