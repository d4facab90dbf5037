import type { ConsumeMessage } from 'amqplib';
import type { Sequelize } from 'sequelize';
import type { ConsumerOutcome, EventStream } from '@libs/bus';
import { isContentError } from '@libs/db';
import type { Logger } from '@libs/logging';
import { objectOf } from '../events/event-object';
import { storeAndFanOut } from '../events/fan-out';
import { eventLag, eventsRejected, eventsStored } from '../metrics';
import { notifiedEventSchema, type NotifiedEvent } from './notified-event';

export interface StoreRetryOptions {
  initialDelayMs: number;
  maxDelayMs: number;
}

const DEFAULT_RETRY: StoreRetryOptions = { initialDelayMs: 100, maxDelayMs: 5_000 };

export interface EventHandling {
  sequelize: Sequelize;
  logger: Logger;
  publicApiUrl: string;
  /** The retry schedule's first wait: when a new delivery is first due. */
  firstWaitMs: number;
  /** Told after a commit that queued deliveries, so this instance's worker claims them at once. */
  queued: () => void;
  retry?: StoreRetryOptions;
}

/**
 * Decides each message's fate, as the audit consumer does: malformed → dead-lettered at once; refused by the
 * database → back to the queue, which dead-letters it after its delivery limit; database unreachable → held
 * (unacked) and retried with backoff. The ack comes only after the event and its deliveries are committed, so a
 * killed instance loses nothing: the message comes again and is stored once.
 */
export function eventMessageHandler(stream: EventStream, handling: EventHandling) {
  const { sequelize, logger } = handling;
  const retry = handling.retry ?? DEFAULT_RETRY;

  async function storePatiently(event: NotifiedEvent): Promise<ConsumerOutcome> {
    const stored = {
      eventId: event.eventId,
      type: event.action,
      source: stream,
      occurredAt: event.occurredAt,
      subjects: event.subjects,
      object: objectOf(event, handling.publicApiUrl),
    };
    for (let attempt = 0; ; attempt += 1) {
      try {
        const { outcome, deliveries } = await storeAndFanOut(sequelize, stored, handling.firstWaitMs);
        eventsStored.inc({ outcome });
        if (outcome === 'stored') eventLag.observe((Date.now() - Date.parse(event.occurredAt)) / 1000);
        if (deliveries > 0) handling.queued();
        logger.debug({ eventId: event.eventId, outcome, deliveries }, 'event handled');
        return 'ack';
      } catch (error) {
        if (isContentError(error)) {
          logger.error({ err: error, eventId: event.eventId }, 'the database refuses this event; returning it to the queue');
          return 'retry';
        }
        const delay = Math.min(retry.initialDelayMs * 2 ** attempt, retry.maxDelayMs);
        logger.warn({ err: error, eventId: event.eventId, attempt, delayMs: delay }, 'cannot store the event yet; holding it');
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  return async (message: ConsumeMessage): Promise<ConsumerOutcome> => {
    let body: unknown;
    try {
      body = JSON.parse(message.content.toString('utf8'));
    } catch {
      logger.error({ messageId: message.properties.messageId }, 'event message is not JSON; dead-lettering it');
      eventsRejected.inc();
      return 'reject';
    }
    const parsed = notifiedEventSchema.safeParse(body);
    if (!parsed.success) {
      logger.error({ messageId: message.properties.messageId, problem: parsed.error.issues[0] }, 'event message is not a valid event; dead-lettering it');
      eventsRejected.inc();
      return 'reject';
    }
    return storePatiently(parsed.data);
  };
}
