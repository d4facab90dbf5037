import { QueryTypes, type Sequelize } from 'sequelize';
import type { QueueWitness } from '@libs/bus';
import type { Logger } from '@libs/logging';
import { outboxRepublished } from './outbox-metrics';

/**
 * Puts back in the outbox the events that deleting a consumer's queue (audit's, notifications') may have destroyed;
 * the outbox runs one watch per consumer queue (start-outbox.ts), each with its own row in `outbox_queue_watch`.
 * Events put back go to every queue again: each consumer stores an eventId once.
 *
 * RabbitMQ confirms an event once the queue holds it, and the relay then marks it
 * published; deleting the queue destroys the events still waiting in it, and nothing
 * tells the publisher. So every few seconds this watch looks at the queue:
 * - no message ready, and the queue's deletion witness still there: every event
 *   published before the look had left the queue (handed to a consumer, which stores
 *   it before it acks). That time is kept as `drained_at`.
 * - the witness gone (the queue was deleted, even if it was declared again since):
 *   it arms the witness again, then puts back (`published_at = NULL`) every event
 *   published since `drained_at` (every published one if the queue was never seen
 *   drained), and every row whose publish is in flight. The relay publishes them
 *   again; the audit service stores each eventId once.
 *
 * Times are the database's clock, like `published_at`: a row marked before
 * `drained_at` was confirmed before the look began. The state lives in
 * `outbox_queue_watch`, so it is shared by every instance of the service and survives a
 * restart. `recovering` is set before the witness is armed again and cleared in the
 * transaction that puts the rows back: a crash in between resumes the recovery, and
 * no look at the newly armed queue can move `drained_at` before the rows are back.
 * Several instances may see the same deletion; each then puts the rows back, which
 * only sends the events more often.
 */
export class AuditQueueWatch {
  private timer?: NodeJS.Timeout;
  private looking: Promise<void> = Promise.resolve();
  private stopped = false;
  private failing = false;

  constructor(
    private readonly sequelize: Sequelize,
    private readonly witness: QueueWitness,
    private readonly logger: Logger,
    private readonly intervalMs: number,
  ) {}

  private get queue(): string {
    return this.witness.topology.queue;
  }

  /** Looks every intervalMs after the previous look ended; the first after intervalMs, when RabbitMQ is likely reached. */
  start(): void {
    const next = () => {
      this.timer = setTimeout(() => {
        this.looking = this.check().then(
          () => this.recovered(),
          (error: unknown) => this.failed(error),
        );
        void this.looking.then(() => this.stopped || next());
      }, this.intervalMs);
    };
    next();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.looking;
  }

  /** One look at the queue, and what it calls for. */
  async check(): Promise<void> {
    const [state] = await this.sequelize.query<{ lookedAt: Date; armed: boolean; recovering: boolean }>(
      `SELECT clock_timestamp() AS "lookedAt", w.queue IS NOT NULL AS armed, coalesce(w.recovering, false) AS recovering
         FROM (SELECT 1) AS one LEFT JOIN outbox_queue_watch w ON w.queue = $1`,
      { bind: [this.queue], type: QueryTypes.SELECT },
    );
    if (!state.armed) return this.armFirst();
    if (state.recovering) return this.recover(); // one that stopped half-way
    const seen = await this.witness.observe();
    if (seen.deleted) {
      await this.sequelize.query('UPDATE outbox_queue_watch SET recovering = true WHERE queue = $1', { bind: [this.queue] });
      return this.recover();
    }
    if (seen.ready === 0) {
      // lookedAt arrives cut to the millisecond: earlier, so on the safe side.
      await this.sequelize.query(
        'UPDATE outbox_queue_watch SET drained_at = GREATEST(drained_at, $2) WHERE queue = $1 AND NOT recovering',
        { bind: [this.queue, state.lookedAt] },
      );
    }
  }

  /**
   * Until the queue is first seen drained, a deletion puts back every published row
   * (the queue may have held any of them). A deletion before the witness first
   * exists goes unseen.
   */
  private async armFirst(): Promise<void> {
    await this.witness.arm();
    await this.sequelize.query('INSERT INTO outbox_queue_watch (queue) VALUES ($1) ON CONFLICT DO NOTHING', {
      bind: [this.queue],
    });
    this.logger.info({ queue: this.queue }, 'watching a consumer queue: a deletion puts its events back in the outbox');
  }

  private async recover(): Promise<void> {
    await this.witness.arm();
    const putBack = await this.sequelize.transaction(async (transaction) => {
      const [watch] = await this.sequelize.query<{ since: Date | null }>(
        'SELECT drained_at AS since FROM outbox_queue_watch WHERE queue = $1 AND recovering FOR UPDATE',
        { bind: [this.queue], type: QueryTypes.SELECT, transaction },
      );
      if (!watch) return undefined; // another instance has just done it
      // One statement, so that a relay marking a row concurrently either marks it first
      // (and the row, now published, is put back) or finds its claim gone.
      const [, result] = await this.sequelize.query(
        `UPDATE outbox SET published_at = NULL, locked_until = NULL, claim_id = NULL
          WHERE published_at >= coalesce($1::timestamptz, '-infinity') OR (published_at IS NULL AND claim_id IS NOT NULL)`,
        { bind: [watch.since], transaction },
      );
      await this.sequelize.query('UPDATE outbox_queue_watch SET recovering = false WHERE queue = $1', {
        bind: [this.queue],
        transaction,
      });
      return { events: (result as { rowCount?: number }).rowCount ?? 0, since: watch.since };
    });
    if (!putBack) return;
    outboxRepublished.inc(putBack.events);
    this.logger.error(
      { queue: this.queue, republished: putBack.events, since: putBack.since?.toISOString() ?? 'ever' },
      'a consumer queue was deleted, destroying any events waiting in it; the events published since it was last seen drained go out again',
    );
  }

  private recovered(): void {
    if (this.failing) this.logger.info({ queue: this.queue }, 'watching the consumer queue again');
    this.failing = false;
  }

  /** Logged once per streak: while RabbitMQ or the database is away, every look fails. */
  private failed(error: unknown): void {
    if (!this.failing) this.logger.warn({ err: error, queue: this.queue }, 'cannot look at a consumer queue; trying again');
    this.failing = true;
  }
}
