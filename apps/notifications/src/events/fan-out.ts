import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { EventSource } from '@libs/contracts';
import type { BulkReference, ObjectReference } from '@libs/webhooks';
import { REACH_BINDS } from '../access';
import { queueEventMail, storeCalendarName, type CalendarName, type MailDraft } from '../mail/event-mails';
import { reaches } from './reach';

export interface StoredEvent {
  eventId: string;
  type: string;
  source: EventSource;
  occurredAt: string;
  /** Absent: the event carried none (an older schema version), so only the roles that see every such event get it. */
  subjects?: readonly string[];
  object: ObjectReference | BulkReference;
  /** The mail the event sends (mail/event-mails.ts). */
  mail?: MailDraft;
  /** A service's or location's name the event sets, for appointment mail. */
  calendarName?: CalendarName;
}

async function insertEvent(sequelize: Sequelize, event: StoredEvent, transaction: Transaction): Promise<boolean> {
  const inserted = await sequelize.query(
    `INSERT INTO events (event_id, type, source, occurred_at, subjects, object) VALUES ($1, $2, $3, $4, $5, $6::jsonb)
     ON CONFLICT (event_id) DO NOTHING RETURNING 1`,
    {
      bind: [event.eventId, event.type, event.source, event.occurredAt, event.subjects ?? null, JSON.stringify(event.object)],
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  return inserted.length > 0;
}

/**
 * Stores the event once and, in the same transaction, one pending delivery per enabled endpoint it reaches, due
 * after the schedule's first wait, and the mail it sends. 'duplicate' when the event was already stored (a
 * redelivered message): nothing is written again.
 */
export async function storeAndFanOut(
  sequelize: Sequelize,
  event: StoredEvent,
  firstWaitMs: number,
): Promise<{ outcome: 'stored' | 'duplicate'; deliveries: number; mails: number }> {
  return sequelize.transaction(async (transaction) => {
    if (!(await insertEvent(sequelize, event, transaction))) return { outcome: 'duplicate' as const, deliveries: 0, mails: 0 };
    if (event.calendarName) await storeCalendarName(sequelize, event.calendarName, event.occurredAt, transaction);
    const mails = event.mail ? await queueEventMail(sequelize, event.eventId, event.mail, transaction) : 0;
    const queued = await sequelize.query(
      `INSERT INTO deliveries (id, endpoint_id, event_id, next_attempt_at)
       SELECT gen_random_uuid(), e.id, $eventId::uuid, now() + $firstWaitMs::int * interval '1 millisecond'
         FROM endpoints e JOIN recipients r ON r.user_id = e.owner_id
        WHERE e.enabled AND ${reaches({ type: '$type::text', source: '$source::text', subjects: '$subjects::text[]' })}
       RETURNING 1`,
      { bind: { ...REACH_BINDS, type: event.type, source: event.source, subjects: event.subjects ?? null, eventId: event.eventId, firstWaitMs }, type: QueryTypes.SELECT, transaction },
    );
    return { outcome: 'stored' as const, deliveries: queued.length, mails };
  });
}
