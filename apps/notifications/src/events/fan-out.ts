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

/** What storing one event came to: its outcome, and how many deliveries and mails it queued. */
export interface FanOut {
  outcome: 'stored' | 'duplicate';
  deliveries: number;
  mails: number;
}

/** An event's id as PostgreSQL returns a uuid. */
const idOf = (event: StoredEvent) => event.eventId.toLowerCase();

/** Inserts the events not stored yet, in one statement; returns the ids it inserted. */
async function insertEvents(sequelize: Sequelize, events: readonly StoredEvent[], transaction: Transaction): Promise<Set<string>> {
  const rows = events.map((event) => ({
    event_id: event.eventId,
    type: event.type,
    source: event.source,
    occurred_at: event.occurredAt,
    subjects: event.subjects ?? null,
    object: event.object,
  }));
  const inserted = await sequelize.query<{ event_id: string }>(
    `INSERT INTO events (event_id, type, source, occurred_at, subjects, object)
     SELECT event_id, type, source, occurred_at, subjects, object
       FROM jsonb_to_recordset($1::jsonb) AS e(event_id uuid, type text, source text, occurred_at timestamptz, subjects text[], object jsonb)
     ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
    { bind: [JSON.stringify(rows)], type: QueryTypes.SELECT, transaction },
  );
  return new Set(inserted.map((row) => row.event_id));
}

/**
 * Stores each event once and, in the same transaction, one pending delivery per enabled endpoint it reaches, due
 * after the schedule's first wait, and the mail it sends. Events that arrive together share the transaction: its
 * statements and its commit are what an event costs the database, not its rows. 'duplicate' when the event was
 * already stored (a redelivered message, or the same event twice in `events`): nothing is written again. The results
 * are in the order of `events`.
 */
export async function storeAndFanOut(sequelize: Sequelize, events: readonly StoredEvent[], firstWaitMs: number): Promise<FanOut[]> {
  return sequelize.transaction(async (transaction) => {
    const inserted = await insertEvents(sequelize, events, transaction);
    // The first of each id inserted is the one stored; a second of the same id in this batch is its duplicate.
    const stored = events.filter((event) => inserted.delete(idOf(event)));
    const mails = new Map<string, number>();
    for (const event of stored) {
      if (event.calendarName) await storeCalendarName(sequelize, event.calendarName, event.occurredAt, transaction);
      if (event.mail) mails.set(event.eventId, await queueEventMail(sequelize, event.eventId, event.mail, transaction));
    }
    const queued =
      stored.length === 0
        ? []
        : await sequelize.query<{ event_id: string }>(
            `INSERT INTO deliveries (id, endpoint_id, event_id, next_attempt_at)
             SELECT gen_random_uuid(), e.id, ev.event_id, now() + $firstWaitMs::int * interval '1 millisecond'
               FROM events ev, endpoints e JOIN recipients r ON r.user_id = e.owner_id
              WHERE ev.event_id = ANY ($eventIds::uuid[]) AND e.enabled
                AND ${reaches({ type: 'ev.type', source: 'ev.source', subjects: 'ev.subjects' })}
             RETURNING event_id`,
            { bind: { ...REACH_BINDS, eventIds: stored.map((event) => event.eventId), firstWaitMs }, type: QueryTypes.SELECT, transaction },
          );
    const deliveries = new Map<string, number>();
    for (const { event_id } of queued) deliveries.set(event_id, (deliveries.get(event_id) ?? 0) + 1);
    const storedOnce = new Set(stored);
    return events.map((event) =>
      storedOnce.has(event)
        ? { outcome: 'stored' as const, deliveries: deliveries.get(idOf(event)) ?? 0, mails: mails.get(event.eventId) ?? 0 }
        : { outcome: 'duplicate' as const, deliveries: 0, mails: 0 },
    );
  });
}
