import { watchSubscription, type BusTopology, type Consumer, type PassiveChecks } from '@libs/bus';
import type { Logger } from '@libs/logging';
import { Counter, Gauge, Histogram, metricsRegistry } from '@libs/metrics';

const registers = [metricsRegistry()];

export const eventsStored = new Counter({
  name: 'audit_events_stored_total',
  help: 'Audit events this instance handled, by outcome: stored, or duplicate (already stored, acknowledged again)',
  labelNames: ['outcome'],
  registers,
});

export const eventsDeadLettered = new Counter({
  name: 'audit_messages_rejected_total',
  help: 'Messages this instance sent to the dead-letter queue at once because they can never be stored',
  registers,
});

export const eventsRefused = new Counter({
  name: 'audit_events_refused_total',
  help: "Messages this instance dead-lettered, never chained, because they are not signed by their stream's producer or name another producer's action, by reason: unsigned, unknown_key, bad_signature, wrong_producer",
  labelNames: ['reason'],
  registers,
});

export const eventLag = new Histogram({
  name: 'audit_event_lag_seconds',
  help: 'Time from a change (occurredAt) to its audit entry being stored',
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  registers,
});

const queueMessages = new Gauge({
  name: 'audit_queue_messages',
  help: 'Messages waiting in an audit queue for a consumer (-1 when unknown), by queue',
  labelNames: ['queue'],
  registers,
});

const deadLetterMessages = new Gauge({
  name: 'audit_dead_letter_messages',
  help: 'Messages in a dead-letter queue, waiting for an operator (-1 when unknown), by queue',
  labelNames: ['queue'],
  registers,
});

const QUEUE_POLL_MS = 5_000;

/**
 * Polls the depth of one audit queue (consumer lag, in messages) and of its
 * dead-letter queue. Both are broker-wide figures: every instance reports the
 * same. Until the first successful read (or while RabbitMQ is down) they are -1.
 * Each reading of the audit queue is also shown to the consumer, which resubscribes when it shows the
 * subscription lost (watchSubscription).
 */
export function watchQueueDepths(
  depths: PassiveChecks,
  topology: BusTopology,
  consumer: Consumer,
  logger: Logger,
): { stop(): void } {
  const waiting = queueMessages.labels({ queue: topology.queue });
  const dead = deadLetterMessages.labels({ queue: topology.deadLetterQueue });
  waiting.set(-1);
  dead.set(-1);
  const subscription = watchSubscription({
    checks: depths,
    queue: topology.queue,
    consumer,
    intervalMs: QUEUE_POLL_MS,
    onState: (state) => waiting.set(state === 'unknown' || !state ? -1 : state.ready),
  });
  const pollDeadLetters = async () => {
    const deadLetters = await depths.readyMessages(topology.deadLetterQueue).catch(() => undefined);
    dead.set(deadLetters ?? -1);
    if (deadLetters) logger.warn({ deadLetters, queue: topology.deadLetterQueue }, 'dead-letter queue is not empty');
  };
  void pollDeadLetters();
  const timer = setInterval(() => void pollDeadLetters(), QUEUE_POLL_MS);
  timer.unref();
  return {
    stop: () => {
      subscription.stop();
      clearInterval(timer);
    },
  };
}
