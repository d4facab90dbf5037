import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

/** The PKCS#8 prefix of an Ed25519 private key: the 32-byte seed follows it (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
/** The SPKI prefix of an Ed25519 public key: the 32 raw bytes follow it. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export interface PublicCheckpointKey {
  keyId: string;
  /** The raw public key, base64url: a JWK's `x`. */
  x: string;
  key: KeyObject;
}

/** The key's name: the first 16 hex digits of the SHA-256 of its raw bytes, so that anyone holding `x` can compute it. */
const keyIdOf = (raw: Buffer) => createHash('sha256').update(raw).digest('hex').slice(0, 16);

/** Whether text is a raw Ed25519 public key in base64url (what CHECKPOINT_TRUSTED_KEYS lists). */
export const isPublicKeyText = (x: string) => /^[A-Za-z0-9_-]{43}$/.test(x) && Buffer.from(x, 'base64url').length === 32;

/** The comma-separated keys of CHECKPOINT_TRUSTED_KEYS, blanks dropped. */
export const listedKeys = (text: string) =>
  text
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');

function publicKeyOf(x: string): PublicCheckpointKey {
  const raw = Buffer.from(x, 'base64url');
  return { keyId: keyIdOf(raw), x: raw.toString('base64url'), key: createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' }) };
}

/** What a checkpoint's signature covers: its fields in one line, easy to rebuild for anyone who checks it. */
export const signedMessage = (checkpoint: { sequence: string; hash: string; signedAt: string }) =>
  Buffer.from(`audit-checkpoint:v1:${checkpoint.sequence}:${checkpoint.hash}:${checkpoint.signedAt}`, 'utf8');

/**
 * The audit service's signing key and the keys it trusts. The private key is derived from CHECKPOINT_SECRET (its
 * SHA-256 is the Ed25519 seed), so every instance of the service signs with the same key and a restart keeps it;
 * the earlier keys of a rotation stay trusted, by their public halves only, for the checkpoints they signed.
 */
export class CheckpointKeys {
  readonly current: PublicCheckpointKey;
  private readonly privateKey: KeyObject;
  private readonly trusted: Map<string, PublicCheckpointKey>;

  constructor(secret: string, trustedKeys: string) {
    const seed = createHash('sha256').update(secret, 'utf8').digest();
    this.privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
    const raw = createPublicKey(this.privateKey).export({ format: 'der', type: 'spki' }).subarray(ED25519_SPKI_PREFIX.length);
    this.current = publicKeyOf(raw.toString('base64url'));
    const earlier = listedKeys(trustedKeys).map(publicKeyOf);
    this.trusted = new Map([this.current, ...earlier].map((key) => [key.keyId, key]));
  }

  /** Every key a checkpoint may be signed with, the current one first. */
  all(): PublicCheckpointKey[] {
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
