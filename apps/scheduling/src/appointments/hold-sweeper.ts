import { randomUUID } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import type { Logger } from '@libs/logging';
import type { SchedulingDeps } from '../scheduling-deps';
import { APPOINTMENT_COLUMNS, type AppointmentRow } from './appointment-row';
import { expireHold } from './appointment-store';

const BATCH = 100;

/**
 * Expires holds past their expiry (database clock) and writes their events. Any number of instances may run
 * it: FOR UPDATE SKIP LOCKED gives each hold to one of them, and a hold a booker or a confirm has locked is
 * left to that transaction. Correctness does not wait for it (the next booker reclaims an expired hold
 * itself); it makes expiry show in the audit log and frees the rows.
 */
export class HoldSweeper {
  private timer?: NodeJS.Timeout;
  private sweeping: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly deps: SchedulingDeps,
    private readonly logger: Logger,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    const next = () => {
      this.timer = setTimeout(() => {
        this.sweeping = this.sweep()
          .then((expired) => expired > 0 && this.logger.info({ expired }, 'expired holds'))
          .catch((error: unknown) => this.logger.warn({ err: error }, 'hold sweep failed; it runs again shortly'))
          .finally(() => this.stopped || next());
      }, this.intervalMs);
    };
    next();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.sweeping;
  }

  /** One sweep, batch after batch until no expired hold is left unlocked; returns how many it expired. */
  async sweep(): Promise<number> {
    const { sequelize } = this.deps;
    const context = { requestId: `hold-sweep-${randomUUID()}` };
    let total = 0;
    for (;;) {
      const expired = await sequelize.transaction(async (transaction) => {
        const rows = await sequelize.query<AppointmentRow>(
          `SELECT ${APPOINTMENT_COLUMNS} FROM appointments a WHERE a.status = 'held' AND a.hold_expires_at <= now()
            ORDER BY a.hold_expires_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
          { type: QueryTypes.SELECT, transaction },
        );
        for (const row of rows) await expireHold(sequelize, transaction, context, row);
        return rows.length;
      });
      if (expired > 0) this.deps.afterCommit();
      total += expired;
      if (expired < BATCH) return total;
    }
  }
}
