import { QueryTypes } from 'sequelize';
import { Counter, Gauge, Histogram, metricsRegistry } from '@libs/metrics';
import { recordEvent } from '@libs/outbox';
import { readersOf } from '../access';
import type { SchedulingDeps } from '../scheduling-deps';
import { APPOINTMENT_COLUMNS, toAppointment, type AppointmentRow } from './appointment-row';
import { SYSTEM_ACTOR } from './appointment-store';

const BATCH = 200;

/** A due reminder as the sweep reads it, beside its appointment's columns. */
interface ReminderRow {
  reminder_of: string;
  reminder_version: number;
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

const unsendable = new Counter({
  name: 'scheduling_reminders_unsendable_total',
  help: 'Due reminders dropped because their appointment could not be read as one (a bug to look into: none is expected)',
  registers,
});

function renderable(row: AppointmentRow): ReturnType<typeof toAppointment> | undefined {
  try {
    return toAppointment(row);
  } catch {
    unsendable.inc();
    return undefined;
  }
}

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
      // The reminders with their appointments in one read; only the reminder rows are locked (a change of the
      // appointment locks the appointment, then these rows: never the other way round).
      const rows = await sequelize.query<ReminderRow & AppointmentRow>(
        `SELECT r.appointment_id::text AS reminder_of, r.version AS reminder_version, r.before_start,
                extract(epoch FROM now() - r.due_at)::float8 AS lag_seconds, ${APPOINTMENT_COLUMNS}
           FROM appointment_reminders r JOIN appointments a ON a.id = r.appointment_id
          WHERE r.due_at <= coalesce(to_timestamp($1::float8 / 1000), now())
          ORDER BY r.due_at LIMIT ${BATCH} FOR UPDATE OF r SKIP LOCKED`,
        { bind: [upTo ?? null], type: QueryTypes.SELECT, transaction },
      );
      if (rows.length === 0) return { taken: 0, sent: 0 };
      await sequelize.query(
        `DELETE FROM appointment_reminders r USING unnest($1::uuid[], $2::int[], $3::text[]) AS d(appointment_id, version, before_start)
          WHERE r.appointment_id = d.appointment_id AND r.version = d.version AND r.before_start = d.before_start`,
        { bind: [rows.map((row) => row.reminder_of), rows.map((row) => row.reminder_version), rows.map((row) => row.before_start)], transaction },
      );
      let sent = 0;
      for (const row of rows) {
        if (row.status !== 'booked' || row.version !== row.reminder_version) continue;
        const appointment = renderable(row);
        // A row that cannot be read as an appointment goes (counted) rather than failing its whole batch on every sweep.
        if (!appointment) continue;
        // The request id names the reminder, (appointment, version, offset): the audit log shows which one each event is.
        const context = { requestId: `reminder-${row.before_start}-${row.id}-v${row.reminder_version}` };
        await recordEvent(sequelize, transaction, context, SYSTEM_ACTOR, {
          action: 'appointment.reminder',
          entityType: 'appointment',
          entityIds: [row.id],
          before: appointment,
          after: appointment,
        }, readersOf);
        sendLag.observe(Math.max(0, row.lag_seconds));
        sent += 1;
      }
      return { taken: rows.length, sent };
    });
    if (taken.sent > 0) deps.afterCommit();
    total += taken.sent;
    if (taken.taken < BATCH) return total;
  }
}
