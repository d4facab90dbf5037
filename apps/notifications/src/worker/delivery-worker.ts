import { randomUUID } from 'node:crypto';
import type { Sequelize } from 'sequelize';
import type { Logger } from '@libs/logging';
import { deliver, webhookPayload, type AddressPolicy, type DeliveryOutcome, type Resolver, type RetrySchedule } from '@libs/webhooks';
import { deliveriesInFlight, deliveryAttempts, deliveryLag, endpointsDisabled } from '../metrics';
import { claimDue, releaseLeases, type ClaimedDelivery } from './claim';
import { recordAttempt } from './record-attempt';

/** A lease outlasts an attempt (which its deadline ends) by this much, for recording it. */
const LEASE_MARGIN_MS = 5_000;
/** Longest pause between claims while the database keeps failing. */
const MAX_BACKOFF_MS = 5_000;

export interface WorkerOptions {
  sequelize: Sequelize;
  logger: Logger;
  policy: AddressPolicy;
  resolve: Resolver;
  schedule: RetrySchedule;
  timeoutMs: number;
  /** Attempts this instance makes at once. */
  concurrency: number;
  pollMs: number;
}

/**
 * Makes the deliveries that are due, on any number of instances side by side: each claims rows under a lease of its
 * own (claim.ts), attempts them concurrently up to its capacity, and records each attempt before giving the lease
 * back. Nothing is delivered from memory: a killed instance's leases run out and another instance takes the rows.
 */
export class DeliveryWorker {
  private readonly owner = randomUUID();
  private readonly leaseMs: number;
  private readonly attempts = new Set<Promise<void>>();
  private running = false;
  private wake?: () => void;
  private nudged = false;
  private loop?: Promise<void>;

  constructor(private readonly options: WorkerOptions) {
    this.leaseMs = options.timeoutMs + LEASE_MARGIN_MS;
  }

  start(): void {
    this.running = true;
    this.loop = this.run();
    // Its leases carry this id: an operator can tell whose claims a stopped instance left behind.
    this.options.logger.info({ leaseOwner: this.owner }, 'delivery worker started');
  }

  /** Deliveries were queued (or an attempt ended and freed room): look again now rather than after the poll. */
  nudge(): void {
    this.nudged = true;
    this.wake?.();
  }

  /** Stops claiming, lets attempts in hand finish for up to `graceMs`, then gives back the leases still held. */
  async stop(graceMs: number): Promise<void> {
    this.running = false;
    this.nudge();
    await this.loop;
    const grace = new Promise((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([Promise.all(this.attempts), grace]);
    await releaseLeases(this.options.sequelize, this.owner).catch((error: unknown) =>
      this.options.logger.warn({ err: error }, 'could not give back the leases still held; they run out by themselves'),
    );
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      const room = this.options.concurrency - this.attempts.size;
      let claimed: ClaimedDelivery[] = [];
      if (room > 0) {
        try {
          claimed = await claimDue(this.options.sequelize, this.owner, room, this.leaseMs);
          failures = 0;
        } catch (error) {
          failures += 1;
          this.options.logger.warn({ err: error, failures }, 'could not claim due deliveries; retrying');
        }
      }
      for (const delivery of claimed) this.attempt(delivery);
      // A full batch may have left more due behind it.
      if (room > 0 && claimed.length === room) continue;
      await this.sleep(failures > 0 ? Math.min(this.options.pollMs * 2 ** failures, MAX_BACKOFF_MS) : this.options.pollMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.nudged || !this.running) {
      this.nudged = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        this.nudged = false;
        done();
      };
    });
  }

  private attempt(claimed: ClaimedDelivery): void {
    const { logger } = this.options;
    deliveriesInFlight.inc();
    const body = JSON.stringify(
      webhookPayload({ id: claimed.event_id, type: claimed.type, occurredAt: claimed.occurred_at, object: claimed.object }),
    );
    const attempt = deliver(
      { url: claimed.url, id: claimed.event_id, body, secrets: claimed.secrets },
      { policy: this.options.policy, resolve: this.options.resolve, timeoutMs: this.options.timeoutMs },
    )
      .then((outcome) => this.record(claimed, outcome))
      .catch((error: unknown) => logger.error({ err: error, deliveryId: claimed.id }, 'delivery attempt failed; its lease runs out and it is tried again'))
      .finally(() => {
        this.attempts.delete(attempt);
        deliveriesInFlight.dec();
        this.nudge();
      });
    this.attempts.add(attempt);
  }

  /** Records the attempt, retrying while the database is away, for as long as the lease lasts. */
  private async record(claimed: ClaimedDelivery, outcome: DeliveryOutcome): Promise<void> {
    const { logger } = this.options;
    const giveUpAt = Date.now() + LEASE_MARGIN_MS;
    for (let wait = 100; ; wait *= 2) {
      try {
        const { verdict, disabled } = await recordAttempt(this.options.sequelize, claimed, this.owner, outcome, this.options.schedule);
        deliveryAttempts.inc({ outcome: verdict });
        if (verdict === 'delivered') deliveryLag.observe((Date.now() - claimed.occurred_at.getTime()) / 1000);
        if (disabled) {
          endpointsDisabled.inc({ reason: disabled });
          logger.warn({ endpointId: claimed.endpoint_id, reason: disabled }, 'webhook endpoint disabled');
        }
        logger.debug({ deliveryId: claimed.id, verdict }, 'delivery attempt recorded');
        return;
      } catch (error) {
        if (Date.now() + wait > giveUpAt) throw error;
        logger.warn({ err: error, deliveryId: claimed.id }, 'cannot record the attempt yet; retrying');
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }
}
