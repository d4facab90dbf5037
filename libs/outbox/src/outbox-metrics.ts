import { QueryTypes, type Sequelize } from 'sequelize';
import { Counter, Gauge, metricsRegistry } from '@libs/metrics';

const registers = [metricsRegistry()];

export const outboxPublished = new Counter({
  name: 'outbox_events_published_total',
  help: 'Audit events this instance published to RabbitMQ and saw confirmed',
  registers,
});

export const outboxPublishFailures = new Counter({
  name: 'outbox_publish_failures_total',
  help: 'Audit events this instance tried to publish without a confirm; each is retried',
  registers,
});

export const outboxReturned = new Counter({
  name: 'outbox_events_returned_total',
  help: 'Audit events RabbitMQ took into no queue and returned (the audit queue was gone); each is retried, not marked published',
  registers,
});

export const outboxRepublished = new Counter({
  name: 'outbox_events_republished_total',
  help: 'Published events this instance put back in the outbox because a consumer queue (audit or notifications) was deleted while they may have waited in it',
  registers,
});

/**
 * The backlog is read from the table at scrape time, so every instance reports
 * the same shared figure; a growing backlog means RabbitMQ is unreachable or
 * the relays cannot keep up. A failed read leaves the last value in place.
 */
export function registerOutboxBacklog(sequelize: Sequelize): void {
  let backlog = { pending: 0, oldestAgeSeconds: 0 };
  const refresh = async () => {
    const [row] = await sequelize
      .query<{ pending: number; oldest: number | null }>(
        `SELECT count(*)::int AS pending, extract(epoch FROM now() - min(created_at))::float8 AS oldest
           FROM outbox WHERE published_at IS NULL`,
        { type: QueryTypes.SELECT },
      )
      .catch(() => []);
    if (row) backlog = { pending: row.pending, oldestAgeSeconds: row.oldest ?? 0 };
  };
  new Gauge({
    name: 'outbox_backlog_events',
    help: 'Audit events committed to the outbox and not yet published',
    registers,
    async collect() {
      await refresh();
      this.set(backlog.pending);
    },
  });
  new Gauge({
    name: 'outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest unpublished outbox event (0 when none waits)',
    registers,
    collect() {
      this.set(backlog.oldestAgeSeconds);
    },
  });
}
