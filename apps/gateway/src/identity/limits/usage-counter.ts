import type { Sequelize } from 'sequelize';
import type { Logger } from '@libs/logging';
import { keyUsageWrites } from './key-limit-metrics';
import { recordKeyUsage } from './key-usage-store';
import type { SharedUsage } from './rate-limiter';
import { utcDay } from './utc-day';

const latest = (a: Date, b: Date): Date => (a > b ? a : b);
const earliest = (a: Date, b: Date): Date => (a < b ? a : b);

/** Admitted requests of one key since the last write. */
interface PendingUse {
  requests: number;
  firstAt: Date;
  lastUsedAt: Date;
  /** The key's rate limit when last counted: the requests fill its bucket. */
  rateLimit: number;
}

/** Who keeps the counts that every instance shares: the rate limiter. */
export interface SharedCounts {
  /** Keys whose shared counts to read back with each write, besides those counted (idle ones are dropped first). */
  keysToRead(nowMs: number): string[];
  /** The shared counts of a key just read, and the requests this instance admitted meanwhile (not in them yet). */
  learn(keyId: string, shared: SharedUsage, pending: number): void;
}

/**
 * Counts admitted requests per key in memory and writes them in one batch
 * every interval, reading back in the same statement what every gateway
 * instance has counted, so that no request waits for the database and the
 * limits hold across instances and restarts. A failed write keeps its counts
 * for the next one; a crash loses at most one interval of counts.
 */
export class UsageCounter {
  private pending = new Map<string, PendingUse>();
  private readonly timer: NodeJS.Timeout;
  /** The write under way, if any. */
  private writing: Promise<void> | undefined;

  constructor(
    private readonly sequelize: Sequelize,
    intervalMs: number,
    private readonly shared: SharedCounts,
    private readonly logger: Logger,
  ) {
    this.timer = setInterval(() => void this.writeUnlessWriting(), intervalMs);
    this.timer.unref();
  }

  count(keyId: string, rateLimit: number, at = new Date()): void {
    const entry = this.pending.get(keyId);
    if (entry) {
      entry.requests += 1;
      entry.lastUsedAt = latest(entry.lastUsedAt, at);
      entry.rateLimit = rateLimit;
    } else {
      this.pending.set(keyId, { requests: 1, firstAt: at, lastUsedAt: at, rateLimit });
    }
  }

  /** Writes everything counted so far, after the write under way if there is one (tests, shutdown). */
  async flush(): Promise<void> {
    await this.writing;
    await this.writeUnlessWriting();
  }

  /**
   * Writes what was counted and reads back the shared counts, unless a write is
   * under way: then it is that write. Writes never overlap, and while the
   * database is partitioned (each write may wait the pool's acquire timeout)
   * ticks queue nothing: their counts add up for the next write.
   */
  private writeUnlessWriting(): Promise<void> {
    this.writing ??= this.writePending().finally(() => {
      this.writing = undefined;
    });
    return this.writing;
  }

  private async writePending(): Promise<void> {
    const now = Date.now();
    const batch = this.pending;
    const alsoRead = this.shared.keysToRead(now).filter((keyId) => !batch.has(keyId));
    if (batch.size === 0 && alsoRead.length === 0) return;
    this.pending = new Map();
    try {
      const counts = await recordKeyUsage(
        this.sequelize,
        [...batch].map(([keyId, use]) => ({ keyId, ...use })),
        alsoRead,
        utcDay(now),
      );
      for (const [keyId, shared] of counts) this.shared.learn(keyId, shared, this.pending.get(keyId)?.requests ?? 0);
      keyUsageWrites.inc({ outcome: 'ok' });
    } catch (error) {
      keyUsageWrites.inc({ outcome: 'failed' });
      this.logger.warn({ err: error, keys: batch.size }, 'could not record key usage; will retry');
      for (const [keyId, use] of batch) {
        const later = this.pending.get(keyId);
        this.pending.set(
          keyId,
          later
            ? {
                requests: use.requests + later.requests,
                firstAt: earliest(use.firstAt, later.firstAt),
                lastUsedAt: latest(use.lastUsedAt, later.lastUsedAt),
                rateLimit: later.rateLimit,
              }
            : use,
        );
      }
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
