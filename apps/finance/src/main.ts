import { busTopology, ConfirmPublisher, connectBus, declareTopology } from '@libs/bus';
import { financeV1 } from '@libs/contracts';
import { openServiceDatabase } from '@libs/db';
import { CursorCodec } from '@libs/cursor';
import { ActorSigner, startGrpcServer, trustActorsSignedBy } from '@libs/grpc';
import { onShutdownSignal, runMain } from '@libs/lifecycle';
import { createLogger } from '@libs/logging';
import { registerDbPoolMetrics, startMetricsServer } from '@libs/metrics';
import { initTracing } from '@libs/tracing';
import { readConfig } from './config';
import { seedDemoData } from './demo-data';
import { financeService } from './finance-service';
import { migrations } from './migrations';
import { registerOutboxBacklog } from './outbox/outbox-metrics';
import { schedulePruning } from './outbox/outbox-pruner';
import { OutboxRelay } from './outbox/outbox-relay';

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger('finance', config.LOG_LEVEL);
  const tracing = initTracing('finance', { otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT, logger });

  const sequelize = await openServiceDatabase({
    url: config.DATABASE_URL,
    poolMax: config.DB_POOL_MAX,
    migrations,
    log: (message) => logger.info(message),
  });
  registerDbPoolMetrics(sequelize);
  if (config.SEED_DEMO_DATA) await seedDemoData(sequelize);

  const topology = busTopology(config.AMQP_NAMESPACE);
  const publisher = new ConfirmPublisher();
  const bus = await connectBus(config.AMQP_URL, logger, async (model) => {
    const channel = await model.createConfirmChannel();
    await declareTopology(channel, topology);
    publisher.attach(channel);
  });
  const relay = new OutboxRelay(sequelize, publisher, topology, logger, {
    batchSize: config.OUTBOX_BATCH_SIZE,
    pollMs: config.OUTBOX_POLL_MS,
    leaseMs: config.OUTBOX_LEASE_MS,
  });
  // Operators may run the relay (and pruning) in separate instances: rows then wait for them.
  const stopPruning = config.OUTBOX_RELAY_ENABLED
    ? schedulePruning(sequelize, config.OUTBOX_RETENTION_HOURS, logger)
    : () => undefined;
  if (config.OUTBOX_RELAY_ENABLED) relay.start();
  registerOutboxBacklog(sequelize);

  const deps = { sequelize, cursors: new CursorCodec(config.CURSOR_SECRET), afterCommit: () => relay.nudge() };
  trustActorsSignedBy(new ActorSigner(config.INTERNAL_AUTH_SECRET));
  const server = await startGrpcServer({
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    logger,
    services: [
      {
        name: 'finance.v1.FinanceService',
        definition: financeV1.FinanceServiceService,
        implementation: financeService(deps, logger),
      },
    ],
  });

  const metrics = await startMetricsServer({ host: config.GRPC_HOST, port: config.METRICS_PORT, logger });

  onShutdownSignal(logger, async () => {
    await server.shutdown(config.SHUTDOWN_GRACE_MS);
    // Rows still in the outbox are published by the next relay to run.
    stopPruning();
    await relay.stop();
    await bus.close();
    await sequelize.close();
    await metrics.close();
    await tracing.shutdown();
  }, config.SHUTDOWN_GRACE_MS);
}

runMain('finance', main);
