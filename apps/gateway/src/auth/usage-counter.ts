import type { Sequelize } from 'sequelize';
import type { Logger } from '@libs/logging';
import { addKeyUsage } from './key-store';

const latest = (a: Date, b: Date): Date => (a > b ? a : b);

/**
 * Counts key uses in memory and writes them in one batch every interval, so
 * that no request waits for a database write. A failed flush keeps its counts
 * for the next one; a crash loses at most one interval of counts.
 */
export class UsageCounter {
  private pending = new Map<string, { requests: number; lastUsedAt: Date }>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly sequelize: Sequelize,
    intervalMs: number,
    private readonly logger: Logger,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  count(keyId: string, at = new Date()): void {
    const entry = this.pending.get(keyId);
    if (entry) {
      entry.requests += 1;
      entry.lastUsedAt = latest(entry.lastUsedAt, at);
    } else {
      this.pending.set(keyId, { requests: 1, lastUsedAt: at });
    }
  }

  /** Writes what was counted so far; flushes never overlap. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writePending());
    return this.flushing;
  }

  private async writePending(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await addKeyUsage(this.sequelize, [...batch].map(([keyId, usage]) => ({ keyId, ...usage })));
    } catch (error) {
      this.logger.warn({ err: error, keys: batch.size }, 'could not record key usage; will retry');
      for (const [keyId, usage] of batch) {
        const later = this.pending.get(keyId);
        this.pending.set(keyId, {
          requests: usage.requests + (later?.requests ?? 0),
          lastUsedAt: later ? latest(later.lastUsedAt, usage.lastUsedAt) : usage.lastUsedAt,
        });
      }
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
