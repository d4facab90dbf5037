import type { Sequelize } from 'sequelize';
import type { Logger } from '@libs/logging';
import type { CheckpointKeys } from './checkpoint-keys';
import { checkpointHead } from './checkpoint-store';

/**
 * Signs the chain's head every interval. Each instance runs one; the head is signed once whoever gets there first
 * (checkpointHead), so several instances add no more checkpoints than one, and an idle chain adds none.
 */
export function startCheckpointTimer(sequelize: Sequelize, keys: CheckpointKeys, intervalMs: number, logger: Logger): { stop(): Promise<void> } {
  let signing: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    signing = checkpointHead(sequelize, keys).catch((error: unknown) => logger.warn({ err: error }, 'could not sign a checkpoint of the chain; the next interval tries again'));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await signing;
    },
  };
}
