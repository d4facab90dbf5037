import { sign, verify, type KeyObject } from 'node:crypto';
import { keyPairOf, listedKeys, publicKeyOf, type PublicKey } from '@libs/signing';

/** What a checkpoint's signature covers: its fields in one line, easy to rebuild for anyone who checks it. */
export const signedMessage = (checkpoint: { sequence: string; hash: string; signedAt: string }) =>
  Buffer.from(`audit-checkpoint:v1:${checkpoint.sequence}:${checkpoint.hash}:${checkpoint.signedAt}`, 'utf8');

/**
 * The audit service's signing key and the keys it trusts. The private key is derived from CHECKPOINT_SECRET (its
 * SHA-256 is the Ed25519 seed), so every instance of the service signs with the same key and a restart keeps it;
 * the earlier keys of a rotation stay trusted, by their public halves only, for the checkpoints they signed.
 */
export class CheckpointKeys {
  readonly current: PublicKey;
  private readonly privateKey: KeyObject;
  private readonly trusted: Map<string, PublicKey>;

  constructor(secret: string, trustedKeys: string) {
    const { privateKey, publicKey } = keyPairOf(secret);
    this.privateKey = privateKey;
    this.current = publicKey;
    const earlier = listedKeys(trustedKeys).map(publicKeyOf);
    this.trusted = new Map([this.current, ...earlier].map((key) => [key.keyId, key]));
  }

  /** Every key a checkpoint may be signed with, the current one first. */
  all(): PublicKey[] {
    return [...this.trusted.values()];
  }

  sign(checkpoint: { sequence: string; hash: string; signedAt: string }): string {
    return sign(null, signedMessage(checkpoint), this.privateKey).toString('base64url');
  }

  /** Whether a trusted key of that id made the signature over those fields. */
  verifies(checkpoint: { sequence: string; hash: string; signedAt: string; keyId: string; signature: string }): boolean {
    const key = this.trusted.get(checkpoint.keyId);
    if (!key) return false;
    try {
      return verify(null, signedMessage(checkpoint), key.key, Buffer.from(checkpoint.signature, 'base64url'));
    } catch {
      return false;
    }
  }
}
