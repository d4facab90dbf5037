import { QueryTypes, type Sequelize } from 'sequelize';
import { messageHeaders, type BusTopology, type ConfirmPublisher } from '@libs/bus';
import type { Logger } from '@libs/logging';
import { outboxPublished, outboxPublishFailures } from './outbox-metrics';

interface ClaimedRow {
  id: string;
  event_id: string;
  routing_key: string;
  payload: unknown;
  request_id: string;
  trace_parent: string | null;
}

/** Longest pause between passes while the database keeps failing. */
const MAX_BACKOFF_MS = 5_000;

export interface RelayOptions {
  batchSize: number;
  pollMs: number;
  leaseMs: number;
}

/**
 * Moves outbox rows to RabbitMQ. Rows are claimed with a lease (FOR UPDATE SKIP
 * LOCKED, then locked_until), so several relays never publish the same row at
 * the same time; a relay that dies mid-batch leaves rows whose lease expires and
 * another relay takes them. A row is marked published only after the broker's
 * confirm, so delivery is at least once; the audit service drops duplicates.
 */
export class OutboxRelay {
  private running = false;
  private wake?: () => void;
  /** A nudge that came while a pass was running: the next sleep is skipped, so its rows are not left waiting. */
  private nudged = false;
  private loop?: Promise<void>;

  constructor(
    private readonly sequelize: Sequelize,
    private readonly publisher: ConfirmPublisher,
    private readonly topology: BusTopology,
    private readonly logger: Logger,
    private readonly options: RelayOptions,
  ) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** Called after a commit that wrote outbox rows, so they go out without waiting for the next poll. */
  nudge(): void {
    this.nudged = true;
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.nudge();
    await this.loop;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      let published = 0;
      try {
        // While the broker is away nothing is claimed: rows stay free for any relay that can publish.
        published = this.publisher.ready ? await this.relayBatch() : 0;
        failures = 0;
      } catch (error) {
        failures += 1;
        this.logger.warn({ err: error, failures }, 'outbox relay pass failed; retrying');
      }
      // Back off while the database fails, so an outage is neither hammered nor flooding the log.
      if (failures > 0) await this.sleep(Math.min(this.options.pollMs * 2 ** failures, MAX_BACKOFF_MS));
      else if (published < this.options.batchSize) await this.sleep(this.options.pollMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.nudged) {
      this.nudged = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.nudged = false;
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  /**
   * A confirm that never comes (a silently dead connection, until heartbeats notice)
   * must not stall the relay: past half the lease the publish counts as failed and
   * the row is retried. Should the confirm still arrive, the event goes out twice,
   * which the audit service absorbs. A publish still waiting for the channel to
   * drain (a blocked broker) by then is dropped, so stale copies never pile up.
   */
  private withinLease(publish: (signal: AbortSignal) => Promise<void>): Promise<void> {
    const signal = AbortSignal.timeout(this.options.leaseMs / 2);
    const timeout = new Promise<never>((_, reject) => {
      signal.addEventListener('abort', () => reject(new Error('no broker confirm within half the lease')), { once: true });
    });
    return Promise.race([publish(signal), timeout]);
  }

  /** One pass: claim, publish, mark. Returns how many rows were published. */
  async relayBatch(): Promise<number> {
    const rows = await this.sequelize.query<ClaimedRow>(
      `UPDATE outbox SET locked_until = now() + make_interval(secs => $2::double precision / 1000),
                         attempts = attempts + 1
        WHERE id IN (SELECT id FROM outbox
                      WHERE published_at IS NULL AND (locked_until IS NULL OR locked_until < now())
                      ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING id::text, event_id::text, routing_key, payload, request_id, trace_parent`,
      { bind: [this.options.batchSize, this.options.leaseMs], type: QueryTypes.SELECT },
    );
    if (rows.length === 0) return 0;
    rows.sort((a, b) => Number(a.id) - Number(b.id));

    const outcomes = await Promise.allSettled(
      rows.map((row) =>
        this.withinLease((signal) =>
          this.publisher.publish(
            this.topology.exchange,
            row.routing_key,
            Buffer.from(JSON.stringify(row.payload)),
            {
              messageId: row.event_id,
              contentType: 'application/json',
              headers: messageHeaders({ requestId: row.request_id, traceParent: row.trace_parent }),
            },
            signal,
          ),
        ),
      ),
    );
    const sent = rows.filter((_, i) => outcomes[i].status === 'fulfilled').map((row) => row.id);
    const failed = rows.filter((_, i) => outcomes[i].status === 'rejected').map((row) => row.id);
    if (sent.length > 0) {
      await this.sequelize.query(
        'UPDATE outbox SET published_at = now(), locked_until = NULL, last_error = NULL WHERE id = ANY($1::bigint[])',
        { bind: [sent] },
      );
      outboxPublished.inc(sent.length);
      this.logger.debug({ published: sent.length }, 'outbox events published');
    }
    if (failed.length > 0) {
      outboxPublishFailures.inc(failed.length);
      const reason = (outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason;
      this.logger.warn({ failed: failed.length, err: reason }, 'some outbox rows were not confirmed; they will be retried');
      // Release the lease early so the retry does not wait for it to expire.
      await this.sequelize.query(
        "UPDATE outbox SET locked_until = now() + interval '1 second', last_error = $2 WHERE id = ANY($1::bigint[])",
        { bind: [failed, String(reason instanceof Error ? reason.message : reason).slice(0, 500)] },
      );
    }
    return sent.length;
  }
}
