import type { Migration } from '@libs/db';

/**
 * The reminders still to send: one row per (appointment, version, offset) of a booked appointment, written and
 * dropped with the change that books, moves or ends it (appointments/reminders.ts) and deleted by the sweep that
 * sends it (reminder-sweeper.ts). The primary key is what makes a reminder at most one row, so at most one event.
 * Booked appointments stored before it get the rows their policy's reminders (0003) still have ahead of them.
 */
export const m0004AppointmentReminders: Migration = {
  name: '0004-appointment-reminders',
  async up({ context }) {
    await context.sequelize.query(`
      CREATE TABLE appointment_reminders (
        appointment_id uuid NOT NULL REFERENCES appointments (id),
        version        integer NOT NULL,
        before_start   text NOT NULL,
        due_at         timestamptz NOT NULL,
        PRIMARY KEY (appointment_id, version, before_start)
      );
      CREATE INDEX appointment_reminders_due ON appointment_reminders (due_at);

      -- A canonical offset (PT<h>H<m>M) is an ISO 8601 interval of hours and minutes: elapsed time, as the
      -- service computes it.
      INSERT INTO appointment_reminders (appointment_id, version, before_start, due_at)
      SELECT a.id, a.version, r.duration, lower(a.span) - r.duration::interval
        FROM appointments a, jsonb_array_elements_text(a.policy->'reminders') AS r(duration)
       WHERE a.status = 'booked' AND lower(a.span) - r.duration::interval > now();
    `);
  },
  async down({ context }) {
    await context.sequelize.query('DROP TABLE appointment_reminders;');
  },
};
