import { busTopology, ConfirmPublisher, connectBus, QueueWitness, TopologyKeeper } from '@libs/bus';
import { financeV1 } from '@libs/contracts';
import { CursorCodec } from '@libs/cursor';
import { ActorSigner, startGrpcServer } from '@libs/grpc';
import { onShutdownSignal, runMain, startServiceFoundation } from '@libs/lifecycle';
import { startMetricsServer } from '@libs/metrics';
import { readConfig } from './config';
import { seedDemoData } from './demo-data';
import { financeService } from './finance-service';
import { migrations } from './migrations';
import { AuditQueueWatch } from './outbox/audit-queue-watch';
import { registerOutboxBacklog } from './outbox/outbox-metrics';
import { schedulePruning } from './outbox/outbox-pruner';
import { OutboxRelay } from './outbox/outbox-relay';

async function main(): Promise<void> {
  const config = readConfig();
  const { logger, tracing, sequelize } = await startServiceFoundation('finance', config, migrations);
  if (config.SEED_DEMO_DATA) await seedDemoData(sequelize);

  const topology = new TopologyKeeper(busTopology(config.AMQP_NAMESPACE));
  const witness = new QueueWitness(topology.topology);
  const publisher = new ConfirmPublisher();
  const bus = await connectBus(config.AMQP_URL, logger, async (model) => {
    await topology.attach(model);
    witness.attach(model);
    publisher.attach(await model.createConfirmChannel());
  });
  const relay = new OutboxRelay(sequelize, publisher, topology, logger, {
    batchSize: config.OUTBOX_BATCH_SIZE,
    pollMs: config.OUTBOX_POLL_MS,
    leaseMs: config.OUTBOX_LEASE_MS,
  });
  const queueWatch = new AuditQueueWatch(sequelize, witness, logger, config.OUTBOX_QUEUE_CHECK_MS);
  // Operators may run the relay (with pruning and the queue watch) in separate instances: rows then wait for them.
  const stopPruning = config.OUTBOX_RELAY_ENABLED
    ? schedulePruning(sequelize, config.OUTBOX_RETENTION_HOURS, logger)
    : () => undefined;
  if (config.OUTBOX_RELAY_ENABLED) {
    relay.start();
    queueWatch.start();
  }
  registerOutboxBacklog(sequelize);

  const deps = { sequelize, cursors: new CursorCodec(config.CURSOR_SECRET), afterCommit: () => relay.nudge() };
  const server = await startGrpcServer({
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    logger,
    services: [
      {
        name: 'finance.v1.FinanceService',
        definition: financeV1.FinanceServiceService,
        implementation: financeService(deps, { logger, actors: new ActorSigner(config.INTERNAL_AUTH_SECRET) }),
      },
    ],
  });

  const metrics = await startMetricsServer({ host: config.GRPC_HOST, port: config.METRICS_PORT, logger });

  onShutdownSignal(logger, async () => {
    await server.shutdown(config.SHUTDOWN_GRACE_MS);
    // Rows still in the outbox are published by the next relay to run.
    stopPruning();
    await queueWatch.stop();
    await relay.stop();
    await bus.close();
    await sequelize.close();
    await metrics.close();
    await tracing.shutdown();
  }, config.SHUTDOWN_GRACE_MS);
}

runMain('finance', main);
