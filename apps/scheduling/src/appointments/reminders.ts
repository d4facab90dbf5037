import type { Sequelize, Transaction } from 'sequelize';
import { reminderOffsetMs } from '@libs/contracts';
import type { AppointmentRow } from './appointment-row';

/** One reminder of one booking: its offset as the policy writes it (canonical) and when it falls due (epoch ms). */
export interface DueReminder {
  beforeStart: string;
  dueAt: number;
}

/**
 * The reminders a booking still has ahead of it at `now`: each offset of its policy, due that much elapsed time
 * before the start (a day is 24 hours, whatever the clocks do in between). One already past is never sent: a
 * reminder that comes after the moment it was for is noise.
 */
export function remindersAhead(booking: { start: number; reminders: readonly string[] }, now: number): DueReminder[] {
  return booking.reminders
    .map((beforeStart) => ({ beforeStart, dueAt: booking.start - reminderOffsetMs(beforeStart) }))
    .filter((reminder) => reminder.dueAt > now);
}

/**
 * Writes the reminders of the appointment's current version (it is booked): the row's version is "this booking at
 * this time", since every change adds 1 to it and a booked appointment stays booked only by moving.
 */
export async function scheduleReminders(sequelize: Sequelize, transaction: Transaction, row: AppointmentRow): Promise<void> {
  const ahead = remindersAhead({ start: row.start_ms, reminders: row.policy.reminders }, row.db_now);
  if (ahead.length === 0) return;
  await sequelize.query(
    `INSERT INTO appointment_reminders (appointment_id, version, before_start, due_at)
     SELECT $1, $2, r.before_start, to_timestamp(r.due_ms / 1000) FROM unnest($3::text[], $4::float8[]) AS r(before_start, due_ms)`,
    { bind: [row.id, row.version, ahead.map((r) => r.beforeStart), ahead.map((r) => r.dueAt)], transaction },
  );
}

/** Drops every reminder the appointment has not sent yet, whatever version it was written for. */
export async function dropReminders(sequelize: Sequelize, transaction: Transaction, appointmentId: string): Promise<void> {
  await sequelize.query('DELETE FROM appointment_reminders WHERE appointment_id = $1', { bind: [appointmentId], transaction });
}

/**
 * Brings the reminders in step with a change just written (recordChange, the one place every change of an
 * appointment goes through): a booking, confirmation or move leaves exactly the new version's; anything else
 * (cancelled, checked in, completed, no-show, entered in error, a hold) leaves none.
 */
export async function remindersAfterChange(sequelize: Sequelize, transaction: Transaction, after: AppointmentRow): Promise<void> {
  await dropReminders(sequelize, transaction, after.id);
  if (after.status === 'booked') await scheduleReminders(sequelize, transaction, after);
}
