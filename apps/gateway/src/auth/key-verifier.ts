import { LRUCache } from 'lru-cache';
import type { Sequelize } from 'sequelize';
import type { Logger } from '@libs/logging';
import { hashApiKey, looksLikeApiKey } from './api-key';
import { findKeyOwner, type KeyOwner } from './key-store';
import { UsageCounter } from './usage-counter';

export interface KeyVerifierOptions {
  /** How long a verified key is trusted without asking the database: the bound on how late a revocation bites. */
  cacheTtlMs: number;
  cacheMax: number;
  usageFlushMs: number;
}

/**
 * Verifies API keys. A key seen within the cache TTL is answered from memory;
 * a revocation made through this instance drops the key at once, and other
 * instances stop trusting it when their entry expires (TTL ≤ 5 s).
 */
export class KeyVerifier {
  private readonly cache: LRUCache<string, KeyOwner>;
  private readonly usage: UsageCounter;

  constructor(sequelize: Sequelize, options: KeyVerifierOptions, logger: Logger) {
    // fetch() shares one database lookup among concurrent requests for the same key.
    this.cache = new LRUCache<string, KeyOwner>({
      max: options.cacheMax,
      ttl: options.cacheTtlMs,
      fetchMethod: (keyHash) => findKeyOwner(sequelize, keyHash),
    });
    this.usage = new UsageCounter(sequelize, options.usageFlushMs, logger);
  }

  /** The owner of a live key (its use counted), or undefined. */
  async verify(key: string): Promise<KeyOwner | undefined> {
    if (!looksLikeApiKey(key)) return undefined;
    const owner = await this.cache.fetch(hashApiKey(key));
    if (owner) this.usage.count(owner.keyId);
    return owner;
  }

  forgetKey(keyHash: string): void {
    this.cache.delete(keyHash);
  }

  /** After a role change: this instance re-reads the user's keys at once. */
  forgetUser(userId: string): void {
    for (const [keyHash, owner] of this.cache.entries()) if (owner.userId === userId) this.cache.delete(keyHash);
  }

  flushUsage(): Promise<void> {
    return this.usage.flush();
  }

  stop(): Promise<void> {
    return this.usage.stop();
  }
}

// requireKey(sequelize, permission) is how every route asks for a key; the
// verifier for that database is found here, so routes need no extra argument.
const verifiers = new WeakMap<Sequelize, KeyVerifier>();

export function installKeyVerifier(sequelize: Sequelize, options: KeyVerifierOptions, logger: Logger): KeyVerifier {
  const verifier = new KeyVerifier(sequelize, options, logger);
  verifiers.set(sequelize, verifier);
  return verifier;
}

export function keyVerifierOf(sequelize: Sequelize): KeyVerifier {
  const verifier = verifiers.get(sequelize);
  if (!verifier) throw new Error('no key verifier installed for this database: call installKeyVerifier at start');
  return verifier;
}
