import { CursorCodec } from '@libs/cursor';
import { ActorVerifier, startGrpcServer } from '@libs/grpc';
import { onShutdownSignal, runMain, startServiceFoundation, SweepLoop } from '@libs/lifecycle';
import { startMetricsServer } from '@libs/metrics';
import { startOutbox } from '@libs/outbox';
import { readConfig } from './config';
import { seedDemoData } from './demo-data';
import { financeService } from './finance-service';
import { sweepExpiredUploads } from './files/file-removal';
import { storageOf } from './files/storage-of';
import { migrations } from './migrations';

async function main(): Promise<void> {
  const config = readConfig();
  const { logger, tracing, sequelize } = await startServiceFoundation('finance', config, migrations);
  if (config.SEED_DEMO_DATA) await seedDemoData(sequelize);

  const outbox = await startOutbox(sequelize, 'finance', config, logger);
  const files = storageOf(config, sequelize);
  const deps = { sequelize, cursors: new CursorCodec(config.CURSOR_SECRET), afterCommit: outbox.nudge, files };
  const server = await startGrpcServer({
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    logger,
    services: [financeService(deps, { logger, actors: new ActorVerifier('finance', config.ACTOR_TRUSTED_KEYS) })],
  });

  const metrics = await startMetricsServer({ host: config.METRICS_HOST, port: config.METRICS_PORT, logger });
  const uploadSweep = new SweepLoop('expired uploads removed', () => sweepExpiredUploads(sequelize, files), logger, config.FILE_SWEEP_INTERVAL_MS);
  uploadSweep.start();

  onShutdownSignal(logger, async () => {
    await server.shutdown(config.SHUTDOWN_GRACE_MS);
    await uploadSweep.stop();
    await outbox.stop();
    await sequelize.close();
    await metrics.close();
    await tracing.shutdown();
  }, config.SHUTDOWN_GRACE_MS);
}

runMain('finance', main);
