import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { Actor, CallContext } from '@libs/grpc';
import { recordEvent } from '@libs/outbox';
import { readersOf } from '../access';
import { APPOINTMENT_COLUMNS, instantRange, toAppointment, type AppointmentRow } from './appointment-row';
import { changesCalendarStatus, OCCUPYING, type Status } from './appointment-states';
import type { Policy } from './policy';
import { remindersAfterChange } from './reminders';

/** The actor of changes nobody asked for: holds expired by the sweeper or reclaimed by the next booker. */
export const SYSTEM_ACTOR: Actor = { userId: 'scheduling', role: 'system' };

export async function findAppointment(
  sequelize: Sequelize,
  id: string,
  transaction?: Transaction,
  lock = false,
): Promise<AppointmentRow | undefined> {
  const [row] = await sequelize.query<AppointmentRow>(
    `SELECT ${APPOINTMENT_COLUMNS} FROM appointments a WHERE a.id = $1 ${lock ? 'FOR UPDATE' : ''}`,
    { bind: [id], type: QueryTypes.SELECT, transaction },
  );
  return row;
}

/** Where an appointment sits: its resource, its time and the time its buffers take. */
export interface Placement {
  locationId: string;
  resourceId: string;
  start: number;
  end: number;
  occupiedStart: number;
  occupiedEnd: number;
  timeZone: string;
}

/** Inserts a held or booked appointment and its allocation; the allocation's insert is where a double booking fails (23P01). */
export async function insertAppointment(
  sequelize: Sequelize,
  transaction: Transaction,
  input: { placement: Placement; serviceId: string; studentId: string; status: 'held' | 'booked'; policy: Policy; bookedBy: string },
): Promise<AppointmentRow> {
  const { placement: p } = input;
  const [{ id }] = await sequelize.query<{ id: string }>(
    `INSERT INTO appointments (location_id, resource_id, service_id, student_id, status, span, time_zone, hold_expires_at, policy, booked_by)
     VALUES ($1, $2, $3, $4, $5, ${instantRange('$6', '$7')}, $8,
             CASE WHEN $5 = 'held' THEN now() + make_interval(secs => $9) END, $10::jsonb, $11)
     RETURNING id::text`,
    {
      bind: [p.locationId, p.resourceId, input.serviceId, input.studentId, input.status, p.start, p.end, p.timeZone,
        input.policy.holdTtlSeconds, JSON.stringify(input.policy), input.bookedBy],
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  await sequelize.query(
    `INSERT INTO allocation (resource_id, appointment_id, student_id, span, occupied)
     VALUES ($1, $2, $3, ${instantRange('$4', '$5')}, ${instantRange('$6', '$7')})`,
    { bind: [p.resourceId, id, input.studentId, p.start, p.end, p.occupiedStart, p.occupiedEnd], transaction },
  );
  return (await findAppointment(sequelize, id, transaction)) as AppointmentRow;
}

/** Moves an appointment's allocation and time in place (a reschedule): a newcomer gets the old time only after the commit. */
export async function moveAppointment(sequelize: Sequelize, transaction: Transaction, id: string, p: Placement): Promise<void> {
  await sequelize.query(
    `UPDATE allocation SET resource_id = $2, span = ${instantRange('$3', '$4')}, occupied = ${instantRange('$5', '$6')}
      WHERE appointment_id = $1`,
    { bind: [id, p.resourceId, p.start, p.end, p.occupiedStart, p.occupiedEnd], transaction },
  );
  await sequelize.query(
    `UPDATE appointments SET resource_id = $2, location_id = $3, span = ${instantRange('$4', '$5')}, time_zone = $6,
            sequence = sequence + 1, version = version + 1, updated_at = now()
      WHERE id = $1`,
    { bind: [id, p.resourceId, p.locationId, p.start, p.end, p.timeZone], transaction },
  );
}

/** Column changes that come with a status (see appointment-actions.ts); values are bound parameters. */
export type StatusColumns = Partial<
  Record<'cancel_reason_code' | 'cancel_reason_text' | 'cancelled_by' | 'cancelled_by_role' | 'cancelled_late' | 'error_reason', string | boolean>
> & { stamp?: 'cancelled_at' | 'checked_in_at' | 'completed_at' | 'no_show_at' };

/**
 * Compare-and-swap of the status: the row changes only if it still has the status it was read with (the row is
 * locked, so it has; the condition keeps the rule visible in the statement). Freed time goes with it, and a
 * change of the calendar's STATUS adds 1 to SEQUENCE.
 */
export async function setStatus(
  sequelize: Sequelize,
  transaction: Transaction,
  row: AppointmentRow,
  to: Status,
  columns: StatusColumns,
): Promise<void> {
  const { stamp, ...values } = columns;
  const entries = Object.entries(values);
  const sets = entries.map(([column], i) => `${column} = $${i + 4}`);
  if (stamp) sets.push(`${stamp} = now()`);
  if (changesCalendarStatus(row.status, to)) sets.push('sequence = sequence + 1');
  const [, result] = await sequelize.query(
    `UPDATE appointments SET status = $2, hold_expires_at = NULL, version = version + 1, updated_at = now()${sets.map((s) => `, ${s}`).join('')}
      WHERE id = $1 AND status = $3`,
    { bind: [row.id, to, row.status, ...entries.map(([, value]) => value)], transaction },
  );
  if ((result as { rowCount?: number }).rowCount !== 1) throw new Error(`appointment ${row.id} was not ${row.status} under its lock`);
  if (!OCCUPYING.includes(to)) {
    await sequelize.query('UPDATE allocation SET active = false WHERE appointment_id = $1', { bind: [row.id], transaction });
  }
}

/** Records a change: one history row, one audit event (outbox) and the reminders it leaves, in the change's transaction. */
export async function recordChange(
  sequelize: Sequelize,
  transaction: Transaction,
  context: CallContext,
  actor: Actor,
  change: { action: string; before: AppointmentRow | null; id: string },
): Promise<AppointmentRow> {
  const after = (await findAppointment(sequelize, change.id, transaction)) as AppointmentRow;
  await sequelize.query(
    `INSERT INTO appointment_history (appointment_id, version, sequence, action, status, span, actor_id, actor_role, reason_code, late)
     SELECT id, version, sequence, $2, status, span, $3, $4, cancel_reason_code, coalesce(cancelled_late, false)
       FROM appointments WHERE id = $1`,
    { bind: [change.id, change.action, actor.userId, actor.role], transaction },
  );
  await remindersAfterChange(sequelize, transaction, after);
  await recordEvent(sequelize, transaction, context, actor, {
    action: `appointment.${change.action}`,
    entityType: 'appointment',
    entityIds: [change.id],
    before: change.before && toAppointment(change.before),
    after: toAppointment(after),
  }, readersOf);
  return after;
}

/** Ends a hold that has run out (status held and past its expiry by the database clock); false if it had not. */
export async function expireHold(sequelize: Sequelize, transaction: Transaction, context: CallContext, row: AppointmentRow): Promise<boolean> {
  if (row.status !== 'held' || !row.hold_expired) return false;
  await setStatus(sequelize, transaction, row, 'cancelled', {
    cancel_reason_code: 'expired',
    cancelled_by: SYSTEM_ACTOR.userId,
    cancelled_by_role: SYSTEM_ACTOR.role,
    cancelled_late: false,
    stamp: 'cancelled_at',
  });
  await recordChange(sequelize, transaction, context, SYSTEM_ACTOR, { action: 'expired', before: row, id: row.id });
  return true;
}

/**
 * Frees, in the booker's own transaction, the expired holds in its way: on the resource's time it needs, or on
 * the student's. Correctness never waits for the sweeper. Locks are taken in id order, so two bookers cannot
 * deadlock over them; one that the sweeper holds is waited for, then found expired already and skipped.
 */
export async function reclaimExpiredHolds(
  sequelize: Sequelize,
  transaction: Transaction,
  context: CallContext,
  need: { resourceId: string; occupiedStart: number; occupiedEnd: number; studentId: string; start: number; end: number },
): Promise<void> {
  const rows = await sequelize.query<AppointmentRow>(
    `SELECT ${APPOINTMENT_COLUMNS} FROM appointments a JOIN allocation l ON l.appointment_id = a.id
      WHERE l.active AND a.status = 'held' AND a.hold_expires_at <= now()
        AND ((l.resource_id = $1 AND l.occupied && ${instantRange('$2', '$3')}) OR (l.student_id = $4 AND l.span && ${instantRange('$5', '$6')}))
      ORDER BY a.id FOR UPDATE OF a`,
    {
      bind: [need.resourceId, need.occupiedStart, need.occupiedEnd, need.studentId, need.start, need.end],
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  for (const row of rows) await expireHold(sequelize, transaction, context, row);
}
