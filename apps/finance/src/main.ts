import { CursorCodec } from '@libs/cursor';
import { ActorSigner, startGrpcServer } from '@libs/grpc';
import { onShutdownSignal, runMain, startServiceFoundation } from '@libs/lifecycle';
import { startMetricsServer } from '@libs/metrics';
import { startOutbox } from '@libs/outbox';
import { readConfig } from './config';
import { seedDemoData } from './demo-data';
import { financeService } from './finance-service';
import { storageOf } from './files/storage-of';
import { migrations } from './migrations';

async function main(): Promise<void> {
  const config = readConfig();
  const { logger, tracing, sequelize } = await startServiceFoundation('finance', config, migrations);
  if (config.SEED_DEMO_DATA) await seedDemoData(sequelize);

  const outbox = await startOutbox(sequelize, 'finance', config, logger);
  const deps = { sequelize, cursors: new CursorCodec(config.CURSOR_SECRET), afterCommit: outbox.nudge, files: storageOf(config, sequelize) };
  const server = await startGrpcServer({
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    logger,
    services: [financeService(deps, { logger, actors: new ActorSigner(config.INTERNAL_AUTH_SECRET) })],
  });

  const metrics = await startMetricsServer({ host: config.METRICS_HOST, port: config.METRICS_PORT, logger });

  onShutdownSignal(logger, async () => {
    await server.shutdown(config.SHUTDOWN_GRACE_MS);
    await outbox.stop();
    await sequelize.close();
    await metrics.close();
    await tracing.shutdown();
  }, config.SHUTDOWN_GRACE_MS);
}

runMain('finance', main);
