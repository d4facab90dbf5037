import type { ConsumeMessage } from 'amqplib';
import type { z } from 'zod';
import { EVENT_TYPES, isEventType } from '@libs/contracts';
import { isContentError } from '@libs/db';
import type { Logger } from '@libs/logging';
import type { EventRefusal, TrustedEventKeys } from '@libs/signing';
import type { ConsumerOutcome } from './consumer';
import type { EventStream } from './topology';

export interface StoreRetryOptions {
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_STORE_RETRY: StoreRetryOptions = { initialDelayMs: 100, maxDelayMs: 5_000 };

/**
 * The event a message carries, or undefined when it can never be stored (not JSON, or not a valid event): the
 * consumer then dead-letters it at once. Why is logged, never the body.
 */
function parseEventMessage<T>(message: ConsumeMessage, schema: z.ZodType<T>, logger: Logger): T | undefined {
  const messageId = message.properties.messageId;
  let body: unknown;
  try {
    body = JSON.parse(message.content.toString('utf8'));
  } catch {
    logger.error({ messageId }, 'event message is not JSON; dead-lettering it');
    return undefined;
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    logger.error({ messageId, problem: parsed.error.issues[0] }, 'event message is not a valid event; dead-lettering it');
    return undefined;
  }
  return parsed.data;
}

/** What a consumer counts of the messages it dead-letters at once. */
export interface EventCounters {
  /** Refused: not shown to come from the stream's producer, by reason. */
  refused: { inc(labels: { reason: EventRefusal }): void };
  /** Signed by the producer but never storable: not JSON, or not a valid event. */
  malformed: { inc(): void };
}

/**
 * The event a message carries, once shown to come from `stream`'s producer: signed over these very bytes, its
 * routing key and id by a key trusted for that producer, and of an action that producer publishes (EVENT_TYPES).
 * Otherwise undefined, counted and logged (why, never the body): the consumer dead-letters it, so a forged event is
 * never stored, chained or sent on. The signature is checked before the body is parsed.
 */
export function readSignedEvent<T extends { action: string }>(
  message: ConsumeMessage,
  stream: EventStream,
  trust: TrustedEventKeys,
  schema: z.ZodType<T>,
  logger: Logger,
  counters: EventCounters,
): T | undefined {
  const messageId = message.properties.messageId as string | undefined;
  const signed = { routingKey: message.fields.routingKey, messageId: messageId ?? '', body: message.content };
  const refusal = trust.refusalOf(stream, signed, message.properties.headers);
  const event = refusal ? undefined : parseEventMessage(message, schema, logger);
  if (!refusal && !event) counters.malformed.inc();
  const refused = refusal ?? (event && !(isEventType(event.action) && EVENT_TYPES[event.action].source === stream) ? 'wrong_producer' : undefined);
  if (!refused) return event;
  counters.refused.inc({ reason: refused });
  logger.error({ messageId, stream, reason: refused }, "event message is not signed by its stream's producer, or names another's action; dead-lettering it");
  return undefined;
}

/**
 * Stores one event, patiently, and says what becomes of its message:
 * - the database refuses the event's data: back to the queue, which counts the attempt and dead-letters it after its
 *   delivery limit;
 * - the database is unreachable: the message is held (unacked) and the store retried with backoff until the database
 *   is back. Returning it to the queue instead would spend its delivery attempts in milliseconds and dead-letter good
 *   events during an outage. With every prefetched message held, the broker sends no more: consumption pauses.
 * The ack comes only after `store` committed.
 */
export async function storePatiently(
  eventId: string,
  store: () => Promise<void>,
  logger: Logger,
  retry: StoreRetryOptions = DEFAULT_STORE_RETRY,
): Promise<ConsumerOutcome> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await store();
      if (attempt > 0) logger.info({ eventId, attempt }, 'the database is back; event stored');
      return 'ack';
    } catch (error) {
      if (isContentError(error)) {
        logger.error({ err: error, eventId }, 'the database refuses this event; returning it to the queue');
        return 'retry';
      }
      const delay = Math.min(retry.initialDelayMs * 2 ** attempt, retry.maxDelayMs);
      logger.warn({ err: error, eventId, attempt, delayMs: delay }, 'cannot store the event yet; holding it');
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
