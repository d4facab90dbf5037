import { createHash, randomBytes } from 'node:crypto';

const KEY_PATTERN = /^cfk_([A-Za-z0-9]{8})_([A-Za-z0-9_-]{32})$/;

export interface NewApiKey {
  /** The whole key: shown to its owner once, never stored. */
  key: string;
  /** The visible part, safe to list: `cfk_` and 8 characters. */
  prefix: string;
  hash: string;
}

export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** A new key: a recognisable `cfk_` prefix, a lookup id, and 192 random bits. */
export function generateApiKey(): NewApiKey {
  const id = randomBytes(6).toString('base64url').replace(/[-_]/g, 'x').slice(0, 8);
  const key = `cfk_${id}_${randomBytes(24).toString('base64url')}`;
  return { key, prefix: `cfk_${id}`, hash: hashApiKey(key) };
}

export const looksLikeApiKey = (candidate: string): boolean => KEY_PATTERN.test(candidate);
