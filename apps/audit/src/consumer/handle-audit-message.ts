import type { ConsumeMessage } from 'amqplib';
import type { Sequelize } from 'sequelize';
import type { ConsumerOutcome } from '@libs/bus';
import { auditEventSchema, type AuditEvent } from '@libs/contracts';
import type { Logger } from '@libs/logging';
import { currentTraceId } from '@libs/tracing';
import { BatchAppender } from '../entries/batch-appender';
import { eventLag, eventsDeadLettered, eventsStored } from './consumer-metrics';
import { isContentError } from '@libs/db';

export interface StoreRetryOptions {
  initialDelayMs: number;
  maxDelayMs: number;
}

const DEFAULT_RETRY: StoreRetryOptions = { initialDelayMs: 100, maxDelayMs: 5_000 };

/**
 * Decides each message's fate:
 * - not JSON or not a valid event: it can never be stored, so it is dead-lettered at once;
 * - the database refuses the event's data: returned to the queue, which counts the
 *   attempt and dead-letters it after its delivery limit;
 * - the database is unreachable: the message is held (unacked) and the store is retried
 *   with backoff until the database is back. Returning it to the queue instead would
 *   spend its delivery attempts in milliseconds and dead-letter good events during an
 *   outage. With every prefetched message held, the broker sends no more: consumption pauses.
 */
export function auditMessageHandler(sequelize: Sequelize, logger: Logger, retry: StoreRetryOptions = DEFAULT_RETRY) {
  const appender = new BatchAppender(sequelize);

  async function storePatiently(event: AuditEvent, traceId: string | undefined): Promise<ConsumerOutcome> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const outcome = await appender.append(event, traceId);
        eventsStored.inc({ outcome });
        if (outcome === 'stored') eventLag.observe((Date.now() - Date.parse(event.occurredAt)) / 1000);
        if (attempt > 0) logger.info({ eventId: event.eventId, attempt }, 'audit database is back; event stored');
        logger.debug({ eventId: event.eventId, outcome }, 'audit event handled');
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
      logger.error({ messageId: message.properties.messageId }, 'audit message is not JSON; dead-lettering it');
      eventsDeadLettered.inc();
      return 'reject';
    }
    const parsed = auditEventSchema.safeParse(body);
    if (!parsed.success) {
      logger.error(
        { messageId: message.properties.messageId, problem: parsed.error.issues[0] },
        'audit message is not a valid event; dead-lettering it',
      );
      eventsDeadLettered.inc();
      return 'reject';
    }
    // The consumer runs each message in a span continued from its traceparent header.
    return storePatiently(parsed.data, currentTraceId());
  };
}
