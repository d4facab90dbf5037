import type { Sequelize } from 'sequelize';
import type { AuditEvent } from '@libs/contracts';
import { isContentError } from '@libs/db';
import { appendEvents, type AppendOutcome } from './audit-store';

interface Pending {
  event: AuditEvent;
  traceId?: string;
  resolve: (outcome: AppendOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Appends events that arrive together in one transaction. The chain admits one
 * writer at a time, so storing each message in its own transaction caps the
 * rate at one round of lock, read and insert per event; here, while one batch
 * is being written, the next gathers. There is no timer: a lone event is
 * written at once.
 */
export class BatchAppender {
  private queue: Pending[] = [];
  private writing = false;

  constructor(
    private readonly sequelize: Sequelize,
    private readonly maxBatch = 500,
  ) {}

  /** Resolves once the event is committed (or known already); rejects with the database's error. */
  append(event: AuditEvent, traceId?: string): Promise<AppendOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ event, traceId, resolve, reject });
      this.writeNext();
    });
  }

  private writeNext(): void {
    if (this.writing || this.queue.length === 0) return;
    this.writing = true;
    const batch = this.queue.splice(0, this.maxBatch);
    void this.write(batch).finally(() => {
      this.writing = false;
      this.writeNext();
    });
  }

  private async write(batch: Pending[]): Promise<void> {
    try {
      const outcomes = await appendEvents(
        this.sequelize,
        batch.map((p) => p.event),
        batch.map((p) => p.traceId),
      );
      batch.forEach((pending, i) => pending.resolve(outcomes[i]));
    } catch (error) {
      // One event the database refuses must not sink the others: find it by storing them one by one.
      if (batch.length > 1 && isContentError(error)) {
        for (const pending of batch) await this.write([pending]);
        return;
      }
      for (const pending of batch) pending.reject(error);
    }
  }
}
