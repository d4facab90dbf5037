import { LRUCache } from 'lru-cache';
import type { Sequelize } from 'sequelize';
import type { Logger } from '@libs/logging';
import type { GatewayConfig } from '../config';
import { hashApiKey, looksLikeApiKey } from './api-key';
import { announceKeyEvent, KeyEventListener, type KeyEvent } from './key-events';
import { KeyLimiter } from './limits/key-limiter';
import { roleLimitsFrom, type RoleLimits } from './limits/key-limits';
import { findKeyOwner, type KeyOwner } from './key-store';

export interface KeyVerifierOptions {
  /** The gateway database, for the connection that LISTENs for revocations made by other instances. */
  databaseUrl: string;
  /** How long a verified key is trusted without asking the database: the bound on how late a revocation bites. */
  cacheTtlMs: number;
  cacheMax: number;
  /** How often admitted requests are written and the limits' shared counts read back. */
  usageFlushMs: number;
  /** Each role's limits, for keys without limits of their own. */
  roleLimits: RoleLimits;
}

export const keyVerifierOptions = (config: GatewayConfig): KeyVerifierOptions => ({
  databaseUrl: config.DATABASE_URL,
  cacheTtlMs: config.KEY_CACHE_TTL_MS,
  cacheMax: config.KEY_CACHE_MAX,
  usageFlushMs: config.KEY_USAGE_FLUSH_MS,
  roleLimits: roleLimitsFrom(config),
});

/**
 * Verifies API keys. A key seen within the cache TTL is answered from memory.
 * A revocation, role change or change of a key's limits is announced with
 * PostgreSQL NOTIFY, and every instance drops the key from its cache when
 * told; should a notice be missed (listener reconnecting), the entry still
 * expires within the TTL (≤ 5 s). The key's limiter lives here too, as it
 * learns each key's shared counts from the same lookups.
 */
export class KeyVerifier {
  private readonly cache: LRUCache<string, KeyOwner>;
  readonly limiter: KeyLimiter;
  private readonly events: KeyEventListener;
  /** Lookups under way, shared by concurrent requests with the same key. */
  private readonly lookups = new Map<string, Promise<KeyOwner | undefined>>();
  /** Bumped by every forget, so that a lookup begun before a revocation does not cache its stale answer. */
  private generation = 0;

  constructor(
    private readonly sequelize: Sequelize,
    private readonly options: KeyVerifierOptions,
    private readonly logger: Logger,
  ) {
    this.cache = new LRUCache<string, KeyOwner>({ max: options.cacheMax, ttl: options.cacheTtlMs });
    this.limiter = new KeyLimiter(sequelize, options.usageFlushMs, logger);
    this.events = new KeyEventListener(
      options.databaseUrl,
      { onEvent: (event) => this.forget(event), onReconnect: () => this.forgetAll() },
      logger,
    );
  }

  start(): Promise<void> {
    return this.events.start();
  }

  /** The owner of a live key, or undefined. Its use is counted when the limiter admits the request. */
  async verify(key: string): Promise<KeyOwner | undefined> {
    if (!looksLikeApiKey(key)) return undefined;
    const keyHash = hashApiKey(key);
    return this.cache.get(keyHash) ?? (await this.lookup(keyHash));
  }

  private lookup(keyHash: string): Promise<KeyOwner | undefined> {
    const running = this.lookups.get(keyHash);
    if (running) return running;
    const generation = this.generation;
    const lookup = findKeyOwner(this.sequelize, keyHash, this.options.roleLimits)
      .then((found) => {
        if (!found) return undefined;
        this.limiter.seed(found.owner.keyId, found.usage);
        if (generation === this.generation) this.cache.set(keyHash, found.owner);
        return found.owner;
      })
      .finally(() => {
        if (this.lookups.get(keyHash) === lookup) this.lookups.delete(keyHash);
      });
    this.lookups.set(keyHash, lookup);
    return lookup;
  }

  /** After a revocation: this instance forgets the key at once, the others when the notice arrives. */
  keyRevoked(keyHash: string): Promise<void> {
    return this.announce({ kind: 'key', keyHash });
  }

  /** After an admin changed a key's limits: every instance re-reads the key. */
  limitsChanged(keyHash: string): Promise<void> {
    return this.announce({ kind: 'key', keyHash });
  }

  /** After a role change: every instance re-reads the user's keys. */
  roleChanged(userId: string): Promise<void> {
    return this.announce({ kind: 'user', userId });
  }

  private async announce(event: KeyEvent): Promise<void> {
    this.forget(event);
    try {
      await announceKeyEvent(this.sequelize, event);
    } catch (error) {
      // The change is committed; other instances still drop the key when its cache entry expires.
      this.logger.warn({ err: error }, 'could not announce a key change; other instances follow within the cache TTL');
    }
  }

  private forget(event: KeyEvent): void {
    this.generation += 1;
    if (event.kind === 'key') {
      this.cache.delete(event.keyHash);
      this.lookups.delete(event.keyHash);
      return;
    }
    this.lookups.clear();
    for (const [keyHash, owner] of this.cache.entries()) if (owner.userId === event.userId) this.cache.delete(keyHash);
  }

  private forgetAll(): void {
    this.generation += 1;
    this.cache.clear();
    this.lookups.clear();
  }

  flushUsage(): Promise<void> {
    return this.limiter.flush();
  }

  async stop(): Promise<void> {
    await this.events.stop();
    await this.limiter.stop();
  }
}

/** A key verifier listening for other instances' key changes: one per gateway process, passed to what needs it. */
export async function startKeyVerifier(sequelize: Sequelize, options: KeyVerifierOptions, logger: Logger): Promise<KeyVerifier> {
  const verifier = new KeyVerifier(sequelize, options, logger);
  await verifier.start();
  return verifier;
}
