import { busTopology, connectBus, EVENT_STREAMS, PassiveChecks, startConsumer, TopologyKeeper, type EventStream } from '@libs/bus';
import { auditV1 } from '@libs/contracts';
import { CursorCodec } from '@libs/cursor';
import { ActorVerifier, grpcService, startGrpcServer } from '@libs/grpc';
import { onShutdownSignal, runMain, startServiceFoundation } from '@libs/lifecycle';
import { startMetricsServer } from '@libs/metrics';
import { TrustedEventKeys } from '@libs/signing';
import { CheckpointKeys } from './checkpoints/checkpoint-keys';
import { checkpointHandlers } from './checkpoints/checkpoint-handlers';
import { startCheckpointTimer } from './checkpoints/checkpoint-timer';
import { readConfig } from './config';
import { watchQueueDepths } from './consumer/consumer-metrics';
import { auditMessageHandlers } from './consumer/handle-audit-message';
import { deadLetterHandlers } from './dead-letters/dead-letter-handlers';
import { DeadLetterQueue } from './dead-letters/dead-letter-queue';
import { entryHandlers } from './entries/entry-handlers';
import { migrations } from './migrations';

async function main(): Promise<void> {
  const config = readConfig();
  const { logger, tracing, sequelize } = await startServiceFoundation('audit', config, migrations);

  // One consumer per stream (finance's, scheduling's, identity's), each on its own queue, all into the same chain.
  const handlerOf = auditMessageHandlers(sequelize, logger, new TrustedEventKeys(config.EVENT_TRUSTED_KEYS));
  const streams = EVENT_STREAMS.map((stream) => {
    const topology = busTopology(config.AMQP_NAMESPACE, stream);
    const keeper = new TopologyKeeper(topology);
    return { topology, keeper, ...startConsumer({ topology: keeper, prefetch: config.CONSUMER_PREFETCH, logger, handle: handlerOf(stream) }) };
  });
  const depths = new PassiveChecks();
  const deadLetters = Object.fromEntries(streams.map(({ topology }, i) => [EVENT_STREAMS[i], new DeadLetterQueue(topology)])) as Record<
    EventStream,
    DeadLetterQueue
  >;
  const bus = await connectBus(config.AMQP_URL, logger, async (model) => {
    for (const { keeper, attach } of streams) {
      await keeper.attach(model);
      await attach(model);
    }
    depths.attach(model);
    for (const queue of Object.values(deadLetters)) queue.attach(model);
  });
  const queueWatches = streams.map(({ topology, consumer }) => watchQueueDepths(depths, topology, consumer, logger));
  // Every method is for admins, so every call must carry an actor the gateway signed.
  const handling = { logger, actors: new ActorVerifier('audit', config.ACTOR_TRUSTED_KEYS) };
  const checkpointKeys = new CheckpointKeys(config.CHECKPOINT_SECRET, config.CHECKPOINT_TRUSTED_KEYS);
  const cursors = new CursorCodec(config.CURSOR_SECRET);
  const server = await startGrpcServer({
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    logger,
    services: [
      grpcService(auditV1.AuditServiceService, handling, {
        ...entryHandlers(sequelize, cursors, checkpointKeys),
        ...checkpointHandlers(sequelize, checkpointKeys, cursors),
        ...deadLetterHandlers(deadLetters),
      }),
    ],
  });

  const metrics = await startMetricsServer({ host: config.METRICS_HOST, port: config.METRICS_PORT, logger });
  const checkpoints = startCheckpointTimer(sequelize, checkpointKeys, config.CHECKPOINT_INTERVAL_MS, logger);

  onShutdownSignal(logger, async () => {
    // Finish the messages in hand and ack them before the connection goes;
    // anything unacked is redelivered to another consumer.
    for (const watch of queueWatches) watch.stop();
    await checkpoints.stop();
    await Promise.all(streams.map(({ consumer }) => consumer.stop(config.SHUTDOWN_GRACE_MS / 2)));
    await server.shutdown(config.SHUTDOWN_GRACE_MS / 2);
    await bus.close();
    await sequelize.close();
    await metrics.close();
    await tracing.shutdown();
  }, config.SHUTDOWN_GRACE_MS);
}

runMain('audit', main);
