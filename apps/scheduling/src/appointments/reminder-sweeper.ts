import { QueryTypes } from 'sequelize';
import { Gauge, Histogram, metricsRegistry } from '@libs/metrics';
import { recordEvent } from '@libs/outbox';
import { readersOf } from '../access';
import type { SchedulingDeps } from '../scheduling-deps';
import { toAppointment } from './appointment-row';
import { findAppointment, SYSTEM_ACTOR } from './appointment-store';

const BATCH = 200;

interface ReminderRow {
  appointment_id: string;
  version: number;
  before_start: string;
  lag_seconds: number;
}

const registers = [metricsRegistry()];

const sendLag = new Histogram({
  name: 'scheduling_reminder_send_lag_seconds',
  help: 'How long after its due time (database clock) each reminder was turned into its event',
  buckets: [0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
  registers,
});

/**
 * Reminders due and not yet sent, and how long the oldest has waited: read from the table at scrape time, so every
 * instance reports the same shared figures; a growing lag means no instance sweeps, or they cannot keep up.
 */
export function registerReminderBacklog(deps: Pick<SchedulingDeps, 'sequelize'>): void {
  let backlog = { due: 0, oldestSeconds: 0 };
  new Gauge({
    name: 'scheduling_reminders_due_unsent',
    help: 'Reminders past their due time (database clock) and not yet turned into events',
    registers,
    async collect() {
      const [row] = await deps.sequelize
        .query<{ due: number; oldest: number | null }>(
          `SELECT count(*)::int AS due, extract(epoch FROM now() - min(due_at))::float8 AS oldest
             FROM appointment_reminders WHERE due_at <= now()`,
          { type: QueryTypes.SELECT },
        )
        .catch(() => []);
      if (row) backlog = { due: row.due, oldestSeconds: row.oldest ?? 0 };
      this.set(backlog.due);
    },
  });
  new Gauge({
    name: 'scheduling_reminder_oldest_due_seconds',
    help: 'How long the oldest due, unsent reminder has waited past its due time (0 when none waits)',
    registers,
    collect() {
      this.set(backlog.oldestSeconds);
    },
  });
}

/**
 * Turns every reminder due by `upTo` (epoch ms; the database's now() when absent, as in production: one clock for
 * every instance) into one `appointment.reminder` event. Exactly once: the reminder row is taken FOR UPDATE SKIP
 * LOCKED, and deleted in the transaction that writes its event to the outbox, so of any number of instances one
 * sends it, and a crash before the commit leaves the row for the next sweep. A change of the appointment drops
 * the row in its own transaction (reminders.ts), which waits for a sweep that holds the row, so a reminder is
 * either sent before the change commits or never. The sweep still checks the appointment is booked at the row's
 * version and sends nothing for a row that is not. Returns how many it sent.
 */
export async function sweepDueReminders(deps: Pick<SchedulingDeps, 'sequelize' | 'afterCommit'>, upTo?: number): Promise<number> {
  const { sequelize } = deps;
  let total = 0;
  for (;;) {
    const taken = await sequelize.transaction(async (transaction) => {
      const rows = await sequelize.query<ReminderRow>(
        `SELECT appointment_id::text, version, before_start, extract(epoch FROM now() - due_at)::float8 AS lag_seconds
           FROM appointment_reminders
          WHERE due_at <= coalesce(to_timestamp($1::float8 / 1000), now())
          ORDER BY due_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
        { bind: [upTo ?? null], type: QueryTypes.SELECT, transaction },
      );
      let sent = 0;
      for (const reminder of rows) {
        const row = await findAppointment(sequelize, reminder.appointment_id, transaction);
        await sequelize.query('DELETE FROM appointment_reminders WHERE appointment_id = $1 AND version = $2 AND before_start = $3', {
          bind: [reminder.appointment_id, reminder.version, reminder.before_start],
          transaction,
        });
        if (row?.status !== 'booked' || row.version !== reminder.version) continue;
        const appointment = toAppointment(row);
        // The request id names the reminder, (appointment, version, offset): the audit log shows which one each event is.
        const context = { requestId: `reminder-${reminder.before_start}-${reminder.appointment_id}-v${reminder.version}` };
        await recordEvent(sequelize, transaction, context, SYSTEM_ACTOR, {
          action: 'appointment.reminder',
          entityType: 'appointment',
          entityIds: [row.id],
          before: appointment,
          after: appointment,
        }, readersOf);
        sendLag.observe(Math.max(0, reminder.lag_seconds));
        sent += 1;
      }
      return { taken: rows.length, sent };
    });
    if (taken.sent > 0) deps.afterCommit();
    total += taken.sent;
    if (taken.taken < BATCH) return total;
  }
}
