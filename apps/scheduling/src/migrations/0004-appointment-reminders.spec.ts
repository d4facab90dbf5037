import { QueryTypes } from 'sequelize';
import { runMigrations } from '@libs/db';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { migrations } from '.';
import { m0004AppointmentReminders } from './0004-appointment-reminders';

jest.setTimeout(30_000);

describe('migration 0004: the reminders of appointments booked before it', () => {
  let db: ScratchDatabase;
  const before = migrations.slice(0, migrations.indexOf(m0004AppointmentReminders));

  beforeAll(async () => {
    db = await createScratchDatabase('scheduling', before);
    // Booked in two days, booked in an hour (its PT24H reminder already past), cancelled, and a second offset.
    await db.sequelize.query(`
      INSERT INTO locations (premise_id, name, time_zone) VALUES ('7', 'Clinic', 'Europe/London');
      INSERT INTO services (id, name, duration_minutes, slot_step_minutes, buffer_before_minutes, buffer_after_minutes, policy)
        VALUES ('00000000-0000-4000-8000-000000000001', 'S', 30, 30, 0, 0, '{}');
      INSERT INTO resources (id, location_id, kind, name) VALUES ('00000000-0000-4000-8000-000000000002', '7', 'practitioner', 'R');
      INSERT INTO appointments (id, location_id, resource_id, service_id, student_id, status, span, time_zone, policy, booked_by, version) VALUES
        ('00000000-0000-4000-8000-00000000000a', '7', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 's', 'booked',
         tstzrange(date_trunc('minute', now()) + interval '2 days', date_trunc('minute', now()) + interval '2 days 30 minutes'), 'Europe/London', '{"reminders": ["PT24H", "PT30M"]}', 's', 3),
        ('00000000-0000-4000-8000-00000000000b', '7', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 's', 'booked',
         tstzrange(now() + interval '1 hour', now() + interval '90 minutes'), 'Europe/London', '{"reminders": ["PT24H"]}', 's', 1),
        ('00000000-0000-4000-8000-00000000000c', '7', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 's', 'cancelled',
         tstzrange(now() + interval '3 days', now() + interval '3 days 30 minutes'), 'Europe/London', '{"reminders": ["PT24H"]}', 's', 2);`);
    await runMigrations(db.sequelize, db.url, migrations, () => undefined);
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('writes the rows still ahead of booked appointments, at their version, due that elapsed time before the start', async () => {
    const rows = await db.sequelize.query<{ id: string; version: number; before_start: string; before_ms: number }>(
      `SELECT r.appointment_id::text AS id, r.version, r.before_start, (extract(epoch FROM lower(a.span) - r.due_at) * 1000)::float8 AS before_ms
         FROM appointment_reminders r JOIN appointments a ON a.id = r.appointment_id ORDER BY r.due_at`,
      { type: QueryTypes.SELECT },
    );
    expect(rows).toEqual([
      { id: '00000000-0000-4000-8000-00000000000a', version: 3, before_start: 'PT24H', before_ms: 24 * 3_600_000 },
      { id: '00000000-0000-4000-8000-00000000000a', version: 3, before_start: 'PT30M', before_ms: 30 * 60_000 },
    ]);
  });
});
