import { randomUUID } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import type { SchedulingDeps } from '../scheduling-deps';
import { APPOINTMENT_COLUMNS, type AppointmentRow } from './appointment-row';
import { expireHold } from './appointment-store';

const BATCH = 100;

/**
 * Expires holds past their expiry (database clock) and writes their events. Any number of instances may run
 * it (SweepLoop): FOR UPDATE SKIP LOCKED gives each hold to one of them, and a hold a booker or a confirm has
 * locked is left to that transaction. Correctness does not wait for it (the next booker reclaims an expired hold
 * itself); it makes expiry show in the audit log and frees the rows. Returns how many it expired.
 */
export async function sweepExpiredHolds(deps: SchedulingDeps): Promise<number> {
  const { sequelize } = deps;
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
    if (expired > 0) deps.afterCommit();
    total += expired;
    if (expired < BATCH) return total;
  }
}
