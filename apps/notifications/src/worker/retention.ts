import type { Sequelize } from 'sequelize';
import { WEBHOOK_LIMITS } from '@libs/contracts';
import type { Logger } from '@libs/logging';

const SWEEP_EVERY_MS = 10 * 60_000;
const BATCH = 5_000;

/**
 * Deletes events older than the retention (their deliveries and attempts go with them) and secrets past their
 * rotation overlap, in batches. Every instance sweeps: deleting twice is harmless.
 */
export async function sweepExpired(sequelize: Sequelize): Promise<number> {
  let deleted = 0;
  for (;;) {
    const [, result] = await sequelize.query(
      `DELETE FROM events WHERE event_id IN (
         SELECT event_id FROM events WHERE received_at < now() - $1::int * interval '1 day' LIMIT ${BATCH})`,
      { bind: [WEBHOOK_LIMITS.retentionDays] },
    );
    const count = (result as { rowCount?: number }).rowCount ?? 0;
    deleted += count;
    if (count < BATCH) break;
  }
  await sequelize.query('DELETE FROM endpoint_secrets WHERE expires_at <= now()');
  return deleted;
}

/** Sweeps now and then every SWEEP_EVERY_MS; returns the stop. */
export function scheduleRetention(sequelize: Sequelize, logger: Logger): () => void {
  const sweep = () =>
    sweepExpired(sequelize)
      .then((deleted) => deleted > 0 && logger.info({ deleted }, 'deleted events past their retention'))
      .catch((error: unknown) => logger.warn({ err: error }, 'retention sweep failed; it runs again later'));
  const timer = setInterval(() => void sweep(), SWEEP_EVERY_MS);
  timer.unref();
  void sweep();
  return () => clearInterval(timer);
}
