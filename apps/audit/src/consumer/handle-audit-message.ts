import type { ConsumeMessage } from 'amqplib';
import type { Sequelize } from 'sequelize';
import { parseEventMessage, storePatiently, type ConsumerOutcome, type StoreRetryOptions } from '@libs/bus';
import { auditEventSchema } from '@libs/contracts';
import type { Logger } from '@libs/logging';
import { currentTraceId } from '@libs/tracing';
import { BatchAppender } from '../entries/batch-appender';
import { eventLag, eventsDeadLettered, eventsStored } from './consumer-metrics';

/**
 * Decides each message's fate: not JSON or not a valid event, it can never be stored, so it is dead-lettered at
 * once; otherwise it is stored patiently (libs/bus `storePatiently`: refused data back to the queue, an unreachable
 * database waited for with the message held).
 */
export function auditMessageHandler(sequelize: Sequelize, logger: Logger, retry?: StoreRetryOptions) {
  const appender = new BatchAppender(sequelize);

  return async (message: ConsumeMessage): Promise<ConsumerOutcome> => {
    const event = parseEventMessage(message, auditEventSchema, logger);
    if (!event) {
      eventsDeadLettered.inc();
      return 'reject';
    }
    // The consumer runs each message in a span continued from its traceparent header.
    const traceId = currentTraceId();
    const store = async () => {
      const outcome = await appender.append(event, traceId);
      eventsStored.inc({ outcome });
      if (outcome === 'stored') eventLag.observe((Date.now() - Date.parse(event.occurredAt)) / 1000);
      logger.debug({ eventId: event.eventId, outcome }, 'audit event handled');
    };
    return storePatiently(event.eventId, store, logger, retry);
  };
}
