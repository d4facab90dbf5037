import type { Logger } from '@libs/logging';

/**
 * Runs a sweep every `intervalMs` on this instance, one at a time, until stopped; a failed sweep is logged and
 * runs again at the next tick; a sweep answers how many rows it handled. Every instance of a service runs its
 * sweeps, so each sweep must be safe side by side with itself: scheduling's hold and reminder sweeps take their rows
 * FOR UPDATE SKIP LOCKED, and finance's expired uploads may be removed twice (a delete of nothing).
 */
export class SweepLoop {
  private timer?: NodeJS.Timeout;
  private sweeping: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly what: string,
    private readonly sweep: () => Promise<number>,
    private readonly logger: Logger,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    const next = () => {
      this.timer = setTimeout(() => {
        this.sweeping = this.sweep()
          .then((count) => count > 0 && this.logger.info({ count }, this.what))
          .catch((error: unknown) => this.logger.warn({ err: error }, `${this.what}: sweep failed; it runs again shortly`))
          .finally(() => this.stopped || next());
      }, this.intervalMs);
    };
    next();
  }

  /** Lets a sweep under way finish (its transactions commit or roll back) and starts no other. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.sweeping;
  }
}
