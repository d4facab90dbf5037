import type { Sequelize } from 'sequelize';
import type { Logger } from '@libs/logging';

const BATCH = 5_000;
const INTERVAL_MS = 5 * 60_000;

/**
 * Deletes published outbox rows older than the retention period, in small
 * batches so no delete holds many locks. Unpublished rows are never touched.
 * Returns how many rows went.
 */
export async function pruneOutbox(sequelize: Sequelize, retentionHours: number): Promise<number> {
  let total = 0;
  for (;;) {
    const [, result] = await sequelize.query(
      `DELETE FROM outbox WHERE id IN (
         SELECT id FROM outbox
          WHERE published_at < now() - make_interval(hours => $1)
          LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      { bind: [retentionHours, BATCH] },
    );
    const deleted = (result as { rowCount?: number }).rowCount ?? 0;
    total += deleted;
    if (deleted < BATCH) return total;
  }
}

/** Runs pruneOutbox now and then every few minutes; any instance may, several at once are harmless. */
export function schedulePruning(sequelize: Sequelize, retentionHours: number, logger: Logger): () => void {
  const run = () =>
    pruneOutbox(sequelize, retentionHours).then(
      (deleted) => deleted > 0 && logger.info({ deleted, retentionHours }, 'pruned published outbox rows'),
      (error: unknown) => logger.warn({ err: error }, 'outbox pruning failed; it runs again later'),
    );
  void run();
  const timer = setInterval(run, INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
