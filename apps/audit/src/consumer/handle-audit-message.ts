import type { ConsumeMessage } from 'amqplib';
import type { Sequelize } from 'sequelize';
import { readSignedEvent, storePatiently, type ConsumerOutcome, type EventStream, type StoreRetryOptions } from '@libs/bus';
import { auditEventSchema } from '@libs/contracts';
import type { Logger } from '@libs/logging';
import type { TrustedEventKeys } from '@libs/signing';
import { currentTraceId } from '@libs/tracing';
import { BatchAppender } from '../entries/batch-appender';
import { eventLag, eventsDeadLettered, eventsRefused, eventsStored } from './consumer-metrics';

/**
 * Decides the fate of each message of a stream: not signed by the stream's producer (libs/bus `readSignedEvent`),
 * not JSON or not a valid event, it must never be chained, so it is dead-lettered at once; otherwise it is stored
 * patiently (libs/bus `storePatiently`: refused data back to the queue, an unreachable database waited for with the
 * message held). Every stream's handler appends to the one chain.
 */
export function auditMessageHandlers(sequelize: Sequelize, logger: Logger, trust: TrustedEventKeys, retry?: StoreRetryOptions) {
  const appender = new BatchAppender(sequelize);
  const counters = { refused: eventsRefused, malformed: eventsDeadLettered };

  return (stream: EventStream) => async (message: ConsumeMessage): Promise<ConsumerOutcome> => {
    const event = readSignedEvent(message, stream, trust, auditEventSchema, logger, counters);
    if (!event) return 'reject';
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
