import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { NotifiedEvent } from '../consumer/notified-event';
import { TEMPLATES, type TemplateName } from './templates/catalogue';

/**
 * What one event sends by mail: a template, to the users named (each only if the read model knows a verified
 * address for them, their role is the one the message is for, and they have not turned the category off), with
 * the params the template needs. Only the student of a payment or appointment is written to.
 */
export interface MailDraft {
  template: TemplateName;
  /** User ids: the event's subjects that are the record's student. */
  userIds: string[];
  params: Record<string, unknown>;
}

/** A service's or location's name, which appointment mail shows. */
export interface CalendarName {
  kind: 'service' | 'location';
  id: string;
  name: string;
}

const TEMPLATE_OF: Partial<Record<string, TemplateName>> = {
  'payment.processed': 'payment_processed',
  'payment.resolved': 'payment_resolved',
  'appointment.booked': 'appointment_booked',
  'appointment.confirmed': 'appointment_booked',
  'appointment.rescheduled': 'appointment_rescheduled',
  'appointment.cancelled': 'appointment_cancelled',
  'appointment.reminder': 'appointment_reminder',
};

const record = (value: unknown): Record<string, unknown> => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {});
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * The mail an event sends. The recipients come from `subjects` (the users allowed to read the record), narrowed to
 * its student by the snapshot: an appointment names its student's user id; a payment's readers are its student's
 * users, so its subjects with the student role are (queueEventMails checks the role).
 */
export function mailDraftOf(event: NotifiedEvent): MailDraft | undefined {
  const template = TEMPLATE_OF[event.action];
  const subjects = event.subjects ?? [];
  const after = record(event.after);
  if (!template || subjects.length === 0 || event.after === null) return undefined;
  if (event.entityType === 'payment') {
    const payment = {
      id: text(after.id),
      outcome: text(after.outcome),
      note: text(after.note),
      amount: typeof after.amount === 'number' ? after.amount : 0,
      description: text(after.description),
      date: text(after.date) ?? '',
    };
    return { template, userIds: subjects, params: { payment } };
  }
  const studentId = text(after.studentId);
  if (!studentId || !subjects.includes(studentId)) return undefined;
  const cancellation = record(after.cancellation);
  const reason = text(cancellation.reasonText) || text(cancellation.reasonCode) || undefined;
  return {
    template,
    userIds: [studentId],
    params: {
      appointment: {
        id: after.id,
        status: after.status,
        start: after.start,
        end: after.end,
        timeZone: after.timeZone,
        sequence: after.sequence,
        createdAt: after.createdAt,
        updatedAt: after.updatedAt,
      },
      serviceId: text(after.serviceId),
      locationId: text(after.locationId),
      ...(reason ? { reason } : {}),
    },
  };
}

/** The name a service or location event sets. */
export function calendarNameOf(event: NotifiedEvent): CalendarName | undefined {
  const after = record(event.after);
  const name = text(after.name);
  if (name === null) return undefined;
  if (event.entityType === 'service' && text(after.id)) return { kind: 'service', id: after.id as string, name };
  if (event.entityType === 'location' && text(after.premiseId)) return { kind: 'location', id: after.premiseId as string, name };
  return undefined;
}

export async function storeCalendarName(sequelize: Sequelize, name: CalendarName, occurredAt: string, transaction: Transaction): Promise<void> {
  await sequelize.query(
    `INSERT INTO calendar_names (kind, id, name, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (kind, id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at WHERE calendar_names.updated_at <= excluded.updated_at`,
    { bind: [name.kind, name.id, name.name, occurredAt], transaction },
  );
}

/** The names an appointment mail shows: the stored ones, or what the .ics shows without them. */
async function namesOf(sequelize: Sequelize, params: Record<string, unknown>, transaction: Transaction) {
  const rows = await sequelize.query<{ kind: string; name: string }>(
    "SELECT kind, name FROM calendar_names WHERE (kind = 'service' AND id = $1) OR (kind = 'location' AND id = $2)",
    { bind: [params.serviceId ?? '', params.locationId ?? ''], type: QueryTypes.SELECT, transaction },
  );
  const named = (kind: string) => rows.find((row) => row.kind === kind)?.name;
  return { service: named('service') ?? 'Appointment', location: named('location') ?? String(params.locationId ?? '') };
}

/**
 * Stores the draft's mail in the event's transaction: one row per (event, recipient, template), so a redelivered
 * event adds nothing. Returns how many were queued.
 */
export async function queueEventMail(sequelize: Sequelize, eventId: string, draft: MailDraft, transaction: Transaction): Promise<number> {
  const { category } = TEMPLATES[draft.template];
  const params = 'appointment' in draft.params ? { ...draft.params, names: await namesOf(sequelize, draft.params, transaction) } : draft.params;
  const queued = await sequelize.query(
    `INSERT INTO mails (id, cause, recipient, template, category, to_address, params)
     SELECT gen_random_uuid(), $eventId, r.user_id, $template, $category, r.email, $params::jsonb
       FROM recipients r
      WHERE r.user_id = ANY($userIds::text[]) AND r.role = 'student' AND r.email IS NOT NULL AND r.email_verified
        AND NOT ($category = ANY(r.muted))
     ON CONFLICT (cause, recipient, template) DO NOTHING
     RETURNING 1`,
    {
      bind: { eventId, template: draft.template, category, params: JSON.stringify(params), userIds: draft.userIds },
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  return queued.length;
}
