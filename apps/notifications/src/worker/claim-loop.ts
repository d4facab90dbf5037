import type { Logger } from '@libs/logging';

/** Longest pause between claims while the database keeps failing. */
const MAX_BACKOFF_MS = 5_000;

export interface ClaimLoopOptions<T> {
  logger: Logger;
  /** What is claimed, for the log: "deliveries", "mails". */
  what: string;
  /** Attempts this instance makes at once. */
  concurrency: number;
  pollMs: number;
  /** Leases up to `room` due rows for this instance. */
  claim(room: number): Promise<T[]>;
  /** One attempt at a claimed row, recorded before it resolves; a rejection is logged and its lease runs out. */
  attempt(claimed: T): Promise<void>;
  /** The row's id for the log, as a field: `{ deliveryId }`, `{ mailId }`. */
  logFields(claimed: T): Record<string, unknown>;
  /** Gives back the leases this instance still holds. */
  release(): Promise<void>;
}

/**
 * The loop both senders share (webhook deliveries, mail): claim due rows under this instance's lease, attempt them
 * concurrently up to its capacity, look again when one ends or new rows are queued here (nudge), else after the poll.
 * Nothing is sent from memory: a killed instance's leases run out and another instance takes the rows.
 */
export class ClaimLoop<T> {
  private readonly attempts = new Set<Promise<void>>();
  private running = false;
  private wake?: () => void;
  private nudged = false;
  private loop?: Promise<void>;

  constructor(private readonly options: ClaimLoopOptions<T>) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** Rows were queued (or an attempt ended and freed room): look again now rather than after the poll. */
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
    await this.options.release().catch((error: unknown) =>
      this.options.logger.warn({ err: error }, `could not give back the leases of ${this.options.what} still held; they run out by themselves`),
    );
  }

  private async run(): Promise<void> {
    const { logger, what } = this.options;
    let failures = 0;
    while (this.running) {
      const room = this.options.concurrency - this.attempts.size;
      let claimed: T[] = [];
      if (room > 0) {
        try {
          claimed = await this.options.claim(room);
          failures = 0;
        } catch (error) {
          failures += 1;
          logger.warn({ err: error, failures }, `could not claim due ${what}; retrying`);
        }
      }
      for (const row of claimed) this.attempt(row);
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

  private attempt(claimed: T): void {
    const attempt = this.options
      .attempt(claimed)
      .catch((error: unknown) => this.options.logger.error({ err: error, ...this.options.logFields(claimed) }, `an attempt at one of the ${this.options.what} failed; its lease runs out and it is tried again`))
      .finally(() => {
        this.attempts.delete(attempt);
        this.nudge();
      });
    this.attempts.add(attempt);
  }
}
