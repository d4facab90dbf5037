import { busTopology, connectBus, PassiveChecks, startConsumer, TopologyKeeper } from '@libs/bus';
import { auditV1 } from '@libs/contracts';
import { CursorCodec } from '@libs/cursor';
import { ActorSigner, startGrpcServer, unaryHandler } from '@libs/grpc';
import { onShutdownSignal, runMain, startServiceFoundation } from '@libs/lifecycle';
import { startMetricsServer } from '@libs/metrics';
import { permitted } from './access';
import { readConfig } from './config';
import { watchQueueDepths } from './consumer/consumer-metrics';
import { auditMessageHandler } from './consumer/handle-audit-message';
import { deadLetterHandlers } from './dead-letters/dead-letter-handlers';
import { DeadLetterQueue } from './dead-letters/dead-letter-queue';
import { entryHandlers } from './entries/entry-handlers';
import { migrations } from './migrations';

async function main(): Promise<void> {
  const config = readConfig();
  const { logger, tracing, sequelize } = await startServiceFoundation('audit', config, migrations);

  const topology = busTopology(config.AMQP_NAMESPACE);
  const keeper = new TopologyKeeper(topology);
  const { consumer, attach } = startConsumer({
    topology: keeper,
    prefetch: config.CONSUMER_PREFETCH,
    logger,
    handle: auditMessageHandler(sequelize, logger),
  });
  const depths = new PassiveChecks();
  const deadLetters = new DeadLetterQueue(topology);
  const bus = await connectBus(config.AMQP_URL, logger, async (model) => {
    await keeper.attach(model);
    await attach(model);
    depths.attach(model);
    deadLetters.attach(model);
  });
  const queueWatch = watchQueueDepths(depths, topology, consumer, logger);

  const entries = entryHandlers(sequelize, new CursorCodec(config.CURSOR_SECRET));
  const deadLetterAdmin = deadLetterHandlers(deadLetters);
  // Every method is for admins, so every call must carry an actor the gateway signed.
  const handling = { logger, actors: new ActorSigner(config.INTERNAL_AUTH_SECRET) };
  const server = await startGrpcServer({
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    logger,
    services: [
      {
        name: 'audit.v1.AuditService',
        definition: auditV1.AuditServiceService,
        implementation: {
          listEntries: unaryHandler(handling, 'ListEntries', permitted('audit:read')(entries.listEntries)),
          verifyChain: unaryHandler(handling, 'VerifyChain', permitted('audit:read')(entries.verifyChain)),
          getDeadLetters: unaryHandler(handling, 'GetDeadLetters', permitted('audit:read')(deadLetterAdmin.getDeadLetters)),
          replayDeadLetters: unaryHandler(handling, 'ReplayDeadLetters', permitted('audit:replay')(deadLetterAdmin.replayDeadLetters)),
        } satisfies auditV1.AuditServiceServer,
      },
    ],
  });

  const metrics = await startMetricsServer({ host: config.GRPC_HOST, port: config.METRICS_PORT, logger });

  onShutdownSignal(logger, async () => {
    // Finish the messages in hand and ack them before the connection goes;
    // anything unacked is redelivered to another consumer.
    queueWatch.stop();
    await consumer.stop(config.SHUTDOWN_GRACE_MS / 2);
    await server.shutdown(config.SHUTDOWN_GRACE_MS / 2);
    await bus.close();
    await sequelize.close();
    await metrics.close();
    await tracing.shutdown();
  }, config.SHUTDOWN_GRACE_MS);
}

runMain('audit', main);
