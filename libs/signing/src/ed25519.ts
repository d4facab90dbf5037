import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

/** The PKCS#8 prefix of an Ed25519 private key: the 32-byte seed follows it (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
/** The SPKI prefix of an Ed25519 public key: the 32 raw bytes follow it. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export interface PublicKey {
  keyId: string;
  /** The raw public key, base64url: a JWK's `x`. */
  x: string;
  key: KeyObject;
}

export interface KeyPair {
  publicKey: PublicKey;
  privateKey: KeyObject;
}

/** The key's name: the first 16 hex digits of the SHA-256 of its raw bytes, so that anyone holding `x` can compute it. */
const keyIdOf = (raw: Buffer) => createHash('sha256').update(raw).digest('hex').slice(0, 16);

/** Whether text is a raw Ed25519 public key in base64url (what a list of trusted keys holds). */
export const isPublicKeyText = (x: string) => /^[A-Za-z0-9_-]{43}$/.test(x) && Buffer.from(x, 'base64url').length === 32;

/** The comma-separated entries of a list variable, blanks dropped. */
export const listedKeys = (text: string) =>
  text
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');

/** A public key from its raw bytes in base64url (`isPublicKeyText`). */
export function publicKeyOf(x: string): PublicKey {
  const raw = Buffer.from(x, 'base64url');
  return { keyId: keyIdOf(raw), x: raw.toString('base64url'), key: createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' }) };
}

/**
 * The key pair a secret stands for: its SHA-256 is the Ed25519 seed, so every instance given the secret signs with
 * the same key and a restart keeps it, while the secret itself is any long random string an operator can set.
 */
export function keyPairOf(secret: string): KeyPair {
  const seed = createHash('sha256').update(secret, 'utf8').digest();
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const raw = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(ED25519_SPKI_PREFIX.length);
  return { privateKey, publicKey: publicKeyOf(raw.toString('base64url')) };
}
