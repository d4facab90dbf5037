import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

/**
 * Ed25519 keys as this project writes them in its configuration: a private key derived from a secret (its SHA-256
 * is the seed, so every instance holding the secret signs with the same key and a restart keeps it), and public
 * keys as their 32 raw bytes in base64url (a JWK's `x`), named by a key id anyone holding `x` can compute.
 * Used by the audit checkpoints and the gateway's actor tokens.
 */

/** The PKCS#8 prefix of an Ed25519 private key: the 32-byte seed follows it (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
/** The SPKI prefix of an Ed25519 public key: the 32 raw bytes follow it. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export interface PublicEd25519Key {
  keyId: string;
  /** The raw public key, base64url: a JWK's `x`. */
  x: string;
  key: KeyObject;
}

/** The key's name: the first 16 hex digits of the SHA-256 of its raw bytes. */
const keyIdOf = (raw: Buffer) => createHash('sha256').update(raw).digest('hex').slice(0, 16);

/** Whether text is a raw Ed25519 public key in base64url (what a list of trusted keys holds). */
export const isPublicKeyText = (x: string) => /^[A-Za-z0-9_-]{43}$/.test(x) && Buffer.from(x, 'base64url').length === 32;

/** The comma-separated keys of a list of trusted keys, blanks dropped. */
export const listedKeys = (text: string) =>
  text
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');

/** A public key from its `x` (checked with isPublicKeyText by the configuration that lists it). */
export function publicKeyOf(x: string): PublicEd25519Key {
  const raw = Buffer.from(x, 'base64url');
  return { keyId: keyIdOf(raw), x: raw.toString('base64url'), key: createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' }) };
}

/** The private key derived from `secret`, and its public half. */
export function keyPairFromSecret(secret: string): { privateKey: KeyObject; publicKey: PublicEd25519Key } {
  const seed = createHash('sha256').update(secret, 'utf8').digest();
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const raw = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(ED25519_SPKI_PREFIX.length);
  return { privateKey, publicKey: publicKeyOf(raw.toString('base64url')) };
}
