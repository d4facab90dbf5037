import type { ConsumeMessage } from 'amqplib';
import type { Sequelize } from 'sequelize';
import { readSignedEvent, storePatiently, StoreTogether, type ConsumerOutcome, type EventStream, type StoreRetryOptions } from '@libs/bus';
import type { Logger } from '@libs/logging';
import type { TrustedEventKeys } from '@libs/signing';
import { objectOf } from '../events/event-object';
import { storeAndFanOut, type FanOut, type StoredEvent } from '../events/fan-out';
import { calendarNameOf, mailDraftOf } from '../mail/event-mails';
import { eventLag, eventsRefused, eventsRejected, eventsStored } from '../metrics';
import { notifiedEventSchema, type NotifiedEvent } from './notified-event';

export interface EventHandling {
  sequelize: Sequelize;
  logger: Logger;
  /** The producers' keys (EVENT_TRUSTED_KEYS): an event not signed by its stream's producer is refused. */
  trust: TrustedEventKeys;
  publicApiUrl: string;
  /** The retry schedule's first wait: when a new delivery is first due. */
  firstWaitMs: number;
  /** Told after a commit that queued deliveries or mail, so this instance's senders claim them at once. */
  queued: () => void;
  retry?: StoreRetryOptions;
}

/**
 * Decides each message's fate, as the audit consumer does: not signed by the stream's producer (libs/bus
 * `readSignedEvent`) or malformed → dead-lettered at once, never sent on; refused by the
 * database → back to the queue, which dead-letters it after its delivery limit; database unreachable → held
 * (unacked) and retried with backoff. The ack comes only after the event and its deliveries are committed, so a
 * killed instance loses nothing: the message comes again and is stored once.
 */
/**
 * What a stream adds to the handling of its events: a stricter schema, and a change of this service's own read
 * models made before the event is stored (idempotent, since a redelivered message makes it again).
 */
export interface StreamExtras {
  schema: typeof notifiedEventSchema;
  beforeStore: (event: NotifiedEvent) => Promise<void>;
}

export function eventMessageHandler(stream: EventStream, handling: EventHandling, extras?: StreamExtras) {
  const { sequelize, logger } = handling;
  const counters = { refused: eventsRefused, malformed: eventsRejected };
  // The messages of this stream that arrive together are stored in one transaction.
  const together = new StoreTogether<StoredEvent, FanOut>((events) => storeAndFanOut(sequelize, events, handling.firstWaitMs));

  return async (message: ConsumeMessage): Promise<ConsumerOutcome> => {
    const event = readSignedEvent(message, stream, handling.trust, extras?.schema ?? notifiedEventSchema, logger, counters);
    if (!event) return 'reject';
    const stored: StoredEvent = {
      eventId: event.eventId,
      type: event.action,
      source: stream,
      occurredAt: event.occurredAt,
      subjects: event.subjects,
      object: objectOf(event, handling.publicApiUrl),
      mail: mailDraftOf(event),
      calendarName: calendarNameOf(event),
    };
    const store = async () => {
      await extras?.beforeStore(event);
      const { outcome, deliveries, mails } = await together.store(stored);
      eventsStored.inc({ outcome });
      if (outcome === 'stored') eventLag.observe((Date.now() - Date.parse(event.occurredAt)) / 1000);
      if (deliveries + mails > 0) handling.queued();
      logger.debug({ eventId: event.eventId, outcome, deliveries, mails }, 'event handled');
    };
    return storePatiently(event.eventId, store, logger, handling.retry);
  };
}
