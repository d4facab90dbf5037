import type { ConsumeMessage } from 'amqplib';
import type { Sequelize } from 'sequelize';
import type { ConsumerOutcome } from '@libs/bus';
import { auditEventSchema } from '@libs/contracts';
import type { Logger } from '@libs/logging';
import { currentTraceId } from '@libs/tracing';
import { appendEvent } from '../entries/audit-store';
import { eventLag, eventsDeadLettered, eventsStored } from './consumer-metrics';

/**
 * Decides each message's fate: a malformed event can never be stored, so it is
 * dead-lettered at once; a storage failure is retried (the quorum queue counts
 * deliveries and dead-letters the message after its delivery limit).
 */
export function auditMessageHandler(sequelize: Sequelize, logger: Logger) {
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
    const outcome = await appendEvent(sequelize, parsed.data, currentTraceId());
    eventsStored.inc({ outcome });
    if (outcome === 'stored') eventLag.observe((Date.now() - Date.parse(parsed.data.occurredAt)) / 1000);
    logger.debug({ eventId: parsed.data.eventId, outcome }, 'audit event handled');
    return 'ack';
  };
}
