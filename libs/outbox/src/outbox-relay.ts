import { randomUUID } from 'node:crypto';
import type { Sequelize } from 'sequelize';
import { MEMORY_BUDGETS } from '@libs/contracts';
import { runStatements } from '@libs/db';
import { messageHeaders, ReturnedMessageError, type ConfirmPublisher, type TopologyKeeper } from '@libs/bus';
import type { Logger } from '@libs/logging';
import type { EventSigner } from '@libs/signing';
import { outboxPublished, outboxPublishFailures, outboxReturned } from './outbox-metrics';

interface ClaimedRow {
  id: string;
  event_id: string;
  routing_key: string;
  payload: unknown;
  request_id: string;
  trace_parent: string | null;
  /** Rows the claim could have taken, before its byte budget stopped it. */
  candidates: number;
}

/** Longest pause between passes while the database keeps failing, or the broker keeps returning events. */
const MAX_BACKOFF_MS = 5_000;

export interface RelayOptions {
  batchSize: number;
  pollMs: number;
  leaseMs: number;
  /** The producer's key: every event is signed as it goes out, so one in the outbox when the key rotates gets the new one. */
  signer: EventSigner;
}

/**
 * Moves outbox rows to RabbitMQ. Rows are claimed with a lease (FOR UPDATE SKIP
 * LOCKED, then locked_until), so several relays never publish the same row at
 * the same time; a relay that dies mid-batch leaves rows whose lease expires and
 * another relay takes them. A row is marked published only after the broker's
 * confirm that a queue took it, so delivery is at least once; the audit service
 * drops duplicates. A row the broker returns as unroutable (the audit queue is
 * gone) is retried once the topology is declared again. Each pass claims under an
 * id of its own and marks only rows still under it: AuditQueueWatch may put rows
 * back while their publish is in flight.
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
    private readonly keeper: TopologyKeeper,
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
      let more = false;
      try {
        // While the broker is away nothing is claimed: rows stay free for any relay that can publish.
        const pass = this.publisher.ready ? await this.relayBatch() : { published: 0, returned: 0, more: false };
        more = pass.more;
        failures = pass.returned > 0 ? failures + 1 : 0;
      } catch (error) {
        failures += 1;
        this.logger.warn({ err: error, failures }, 'outbox relay pass failed; retrying');
      }
      // Back off while the database fails or the topology cannot be declared again, so
      // neither is hammered and the log is not flooded.
      if (failures > 0) await this.sleep(Math.min(this.options.pollMs * 2 ** failures, MAX_BACKOFF_MS));
      else if (!more) await this.sleep(this.options.pollMs);
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

  /**
   * One pass: claim, publish, mark. Claims the oldest free rows, at most batchSize, and of those only as many as
   * fit the byte budget (the first always). Returns how many rows were published, how many the broker returned,
   * and whether more rows were waiting (the next pass follows at once).
   */
  async relayBatch(): Promise<{ published: number; returned: number; more: boolean }> {
    const claim = randomUUID();
    const [claimed] = await runStatements(this.sequelize, [
      {
        name: 'outbox.claim',
        text: `WITH candidates AS (
                 SELECT id, sum(payload_bytes) OVER (ORDER BY id) AS running, row_number() OVER (ORDER BY id) AS n
                   FROM (SELECT id, payload_bytes FROM outbox
                          WHERE published_at IS NULL AND (locked_until IS NULL OR locked_until < now())
                          ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED) AS free)
               UPDATE outbox SET locked_until = now() + make_interval(secs => $2::double precision / 1000),
                                 attempts = attempts + 1, claim_id = $3
                WHERE id IN (SELECT id FROM candidates WHERE n = 1 OR running <= $4)
               RETURNING id::text, event_id::text, routing_key, payload, request_id, trace_parent,
                         (SELECT count(*) FROM candidates)::int AS candidates`,
        values: [this.options.batchSize, this.options.leaseMs, claim, MEMORY_BUDGETS.relayClaimBytes],
      },
    ]);
    const rows = claimed.rows as ClaimedRow[];
    if (rows.length === 0) return { published: 0, returned: 0, more: false };
    rows.sort((a, b) => Number(a.id) - Number(b.id));
    const candidates = rows[0].candidates;

    const outcomes = await Promise.allSettled(
      rows.map((row) => {
        const body = Buffer.from(JSON.stringify(row.payload));
        const headers = {
          ...messageHeaders({ requestId: row.request_id, traceParent: row.trace_parent }),
          ...this.options.signer.headers({ routingKey: row.routing_key, messageId: row.event_id, body }),
        };
        return this.withinLease((signal) =>
          this.publisher.publish(
            this.keeper.topology.exchange,
            row.routing_key,
            body,
            { messageId: row.event_id, contentType: 'application/json', headers },
            signal,
          ),
        );
      }),
    );
    const sent: string[] = [];
    const returned: { row: ClaimedRow; error: ReturnedMessageError }[] = [];
    const failed: { row: ClaimedRow; error: unknown }[] = [];
    outcomes.forEach((outcome, i) => {
      if (outcome.status === 'fulfilled') sent.push(rows[i].id);
      else if (outcome.reason instanceof ReturnedMessageError) returned.push({ row: rows[i], error: outcome.reason });
      else failed.push({ row: rows[i], error: outcome.reason });
    });
    let published = 0;
    if (sent.length > 0) {
      const [result] = await runStatements(this.sequelize, [
        {
          name: 'outbox.mark-published',
          text: `UPDATE outbox SET published_at = now(), locked_until = NULL, claim_id = NULL, last_error = NULL
                  WHERE id = ANY($1::bigint[]) AND claim_id = $2`,
          values: [sent, claim],
        },
      ]);
      published = result.rowCount ?? 0;
      outboxPublished.inc(published);
      this.logger.debug({ published }, 'outbox events published');
    }
    if (returned.length > 0) await this.onReturned(returned, claim);
    if (failed.length > 0) {
      outboxPublishFailures.inc(failed.length);
      this.logger.warn({ failed: failed.length, err: failed[0].error }, 'some outbox rows were not confirmed; they will be retried');
      await this.retrySoon(failed, claim);
    }
    return { published, returned: returned.length, more: published === rows.length && (rows.length < candidates || candidates === this.options.batchSize) };
  }

  /**
   * The broker took these events into no queue: the audit queue or its binding is
   * gone. They stay unpublished, and the topology is declared again so that their
   * retry is routed even while the audit service is away. The ids and routing keys
   * logged come from our own rows (a uuid and an action name).
   */
  private async onReturned(returned: { row: ClaimedRow; error: ReturnedMessageError }[], claim: string): Promise<void> {
    outboxReturned.inc(returned.length);
    for (const { row, error } of returned) {
      this.logger.error(
        { eventId: row.event_id, routingKey: row.routing_key, exchange: error.exchange, reason: error.reason },
        'RabbitMQ routed an outbox event to no queue; it stays unpublished and is retried once the topology is declared again',
      );
    }
    await this.keeper.declare().then(
      () => this.logger.warn({ queue: this.keeper.topology.queue }, 'declared the RabbitMQ topology again after returned events'),
      (error: unknown) => this.logger.warn({ err: error }, 'cannot declare the RabbitMQ topology again; the next returned event tries again'),
    );
    await this.retrySoon(returned, claim);
  }

  /** Releases the lease early, so the retry does not wait for it to expire. */
  private async retrySoon(rows: { row: ClaimedRow; error: unknown }[], claim: string): Promise<void> {
    const reason = rows[0].error;
    await this.sequelize.query(
      `UPDATE outbox SET locked_until = now() + interval '1 second', claim_id = NULL, last_error = $2
        WHERE id = ANY($1::bigint[]) AND claim_id = $3`,
      { bind: [rows.map(({ row }) => row.id), String(reason instanceof Error ? reason.message : reason).slice(0, 500), claim] },
    );
  }
}
