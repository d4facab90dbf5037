import { Counter, Gauge, Histogram, metricsRegistry } from '@libs/metrics';

const registers = [metricsRegistry()];

export const eventsStored = new Counter({
  name: 'notifications_events_stored_total',
  help: 'Events this instance handled, by outcome: stored (and fanned out), or duplicate (already stored, acknowledged again)',
  labelNames: ['outcome'],
  registers,
});

export const eventsRejected = new Counter({
  name: 'notifications_messages_rejected_total',
  help: 'Messages this instance sent to the dead-letter queue at once because they can never be stored',
  registers,
});

export const eventsRefused = new Counter({
  name: 'notifications_events_refused_total',
  help: "Messages this instance dead-lettered, never sent on, because they are not signed by their stream's producer or name another producer's action, by reason: unsigned, unknown_key, bad_signature, wrong_producer",
  labelNames: ['reason'],
  registers,
});

export const eventLag = new Histogram({
  name: 'notifications_event_lag_seconds',
  help: 'Time from a change (occurredAt) to its event and deliveries being stored here',
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  registers,
});

export const deliveryAttempts = new Counter({
  name: 'notifications_delivery_attempts_total',
  help: 'Delivery attempts this instance made, by outcome: delivered (2xx), gone (410: endpoint disabled), retry (another attempt is due), failed (the schedule is spent)',
  labelNames: ['outcome'],
  registers,
});

export const deliveryLag = new Histogram({
  name: 'notifications_delivery_lag_seconds',
  help: 'Time from a change (occurredAt) to its receipt by an endpoint, on the first successful attempt',
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600],
  registers,
});

export const deliveriesInFlight = new Gauge({
  name: 'notifications_deliveries_in_flight',
  help: 'Deliveries this instance is making right now',
  registers,
});

export const endpointsDisabled = new Counter({
  name: 'notifications_endpoints_disabled_total',
  help: 'Endpoints this instance disabled, by reason: gone (410), failing (every delivery failed for 5 days)',
  labelNames: ['reason'],
  registers,
});

export const mailAttempts = new Counter({
  name: 'notifications_mail_attempts_total',
  help: 'Attempts at sending mail, by outcome: sent, retry (4xx or no connection: tried again), rejected (5xx or unrenderable: final), expired (24 h of retries spent)',
  labelNames: ['outcome'],
  registers,
});
