import { randomUUID } from 'node:crypto';
import type { Sequelize } from 'sequelize';
import { StoreTogether } from '@libs/bus';
import type { Logger } from '@libs/logging';
import { deliver, webhookPayload, type AddressPolicy, type DeliveryOutcome, type Resolver, type RetrySchedule } from '@libs/webhooks';
import { deliveriesInFlight, deliveryAttempts, deliveryLag, endpointsDisabled } from '../metrics';
import { claimDue, releaseLeases, type ClaimedDelivery } from './claim';
import { ClaimLoop } from './claim-loop';
import { recordAttempts, type Attempt, type AttemptRecord } from './record-attempt';

/** A lease outlasts an attempt (which its deadline ends) by this much, for recording it. */
const LEASE_MARGIN_MS = 5_000;

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
 * own (claim.ts), attempts them concurrently up to its capacity (claim-loop.ts), and records each attempt before
 * giving the lease back.
 */
export class DeliveryWorker {
  private readonly owner = randomUUID();
  private readonly leaseMs: number;
  private readonly loop: ClaimLoop<ClaimedDelivery>;
  /** Attempts that end while others are being recorded are recorded together, in one transaction. */
  private readonly records: StoreTogether<Attempt, AttemptRecord>;

  constructor(private readonly options: WorkerOptions) {
    this.leaseMs = options.timeoutMs + LEASE_MARGIN_MS;
    this.records = new StoreTogether((attempts) => recordAttempts(options.sequelize, attempts, this.owner, options.schedule));
    this.loop = new ClaimLoop({
      logger: options.logger,
      what: 'deliveries',
      concurrency: options.concurrency,
      pollMs: options.pollMs,
      claim: (room) => claimDue(options.sequelize, this.owner, room, this.leaseMs),
      attempt: (claimed) => this.attempt(claimed),
      logFields: (claimed) => ({ deliveryId: claimed.id }),
      release: () => releaseLeases(options.sequelize, this.owner),
    });
  }

  start(): void {
    this.loop.start();
    // Its leases carry this id: an operator can tell whose claims a stopped instance left behind.
    this.options.logger.info({ leaseOwner: this.owner }, 'delivery worker started');
  }

  /** Deliveries were queued: look again now rather than after the poll. */
  nudge(): void {
    this.loop.nudge();
  }

  stop(graceMs: number): Promise<void> {
    return this.loop.stop(graceMs);
  }

  private async attempt(claimed: ClaimedDelivery): Promise<void> {
    deliveriesInFlight.inc();
    try {
      const body = JSON.stringify(
        webhookPayload({ id: claimed.event_id, type: claimed.type, occurredAt: claimed.occurred_at, object: claimed.object }),
      );
      const outcome = await deliver(
        { url: claimed.url, id: claimed.event_id, body, secrets: claimed.secrets },
        { policy: this.options.policy, resolve: this.options.resolve, timeoutMs: this.options.timeoutMs },
      );
      await this.record(claimed, outcome);
    } finally {
      deliveriesInFlight.dec();
    }
  }

  /** Records the attempt, retrying while the database is away, for as long as the lease lasts. */
  private async record(claimed: ClaimedDelivery, outcome: DeliveryOutcome): Promise<void> {
    const { logger } = this.options;
    const giveUpAt = Date.now() + LEASE_MARGIN_MS;
    for (let wait = 100; ; wait *= 2) {
      try {
        const { verdict, disabled } = await this.records.store({ claimed, outcome });
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
