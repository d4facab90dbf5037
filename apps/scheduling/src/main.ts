import { CursorCodec } from '@libs/cursor';
import { ActorVerifier, startGrpcServer } from '@libs/grpc';
import { onShutdownSignal, runMain, startServiceFoundation, SweepLoop } from '@libs/lifecycle';
import { startMetricsServer } from '@libs/metrics';
import { startOutbox } from '@libs/outbox';
import { sweepExpiredHolds } from './appointments/hold-sweeper';
import { registerReminderBacklog, sweepDueReminders } from './appointments/reminder-sweeper';
import { readConfig } from './config';
import { seedDemoDataWhenReady } from './demo-data';
import { PremiseDirectory } from './locations/premise-directory';
import { migrations } from './migrations';
import { schedulingService } from './scheduling-service';

async function main(): Promise<void> {
  const config = readConfig();
  const { logger, tracing, sequelize } = await startServiceFoundation('scheduling', config, migrations);
  const premises = new PremiseDirectory(config.REFERENCE_ADDR, config.REFERENCE_TIMEOUT_MS);
  const stopSeeding = config.SEED_DEMO_DATA ? seedDemoDataWhenReady(sequelize, premises, logger) : () => undefined;

  const outbox = await startOutbox(sequelize, 'scheduling', config, logger);
  const deps = { sequelize, cursors: new CursorCodec(config.CURSOR_SECRET), premises, afterCommit: outbox.nudge };
  // Every instance sweeps: SKIP LOCKED shares the expired holds and the due reminders out among them.
  const sweepers = [
    new SweepLoop('expired holds', () => sweepExpiredHolds(deps), logger, config.HOLD_SWEEP_MS),
    new SweepLoop('sent reminders', () => sweepDueReminders(deps), logger, config.REMINDER_SWEEP_INTERVAL_MS),
  ];
  for (const sweeper of sweepers) sweeper.start();
  registerReminderBacklog(deps);

  const server = await startGrpcServer({
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    logger,
    services: [schedulingService(deps, { logger, actors: new ActorVerifier('scheduling', config.ACTOR_TRUSTED_KEYS) })],
  });

  const metrics = await startMetricsServer({ host: config.METRICS_HOST, port: config.METRICS_PORT, logger });

  onShutdownSignal(logger, async () => {
    await server.shutdown(config.SHUTDOWN_GRACE_MS);
    stopSeeding();
    await Promise.all(sweepers.map((sweeper) => sweeper.stop()));
    // Rows still in the outbox are published by the next relay to run.
    await outbox.stop();
    premises.close();
    await sequelize.close();
    await metrics.close();
    await tracing.shutdown();
  }, config.SHUTDOWN_GRACE_MS);
}

runMain('scheduling', main);
